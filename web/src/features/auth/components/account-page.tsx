// "/account": who is signed in, their role in words, their password (changed, or set when they
// have none yet; a provider's users sign in there), and signing out of every session.
import { Link } from "react-router";
import { ROLE_WORDS } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { SummaryList } from "../../../components/summary-list.tsx";
import { appPaths } from "../../../lib/app-paths.ts";
import { ROLE_NAMES } from "../../../lib/roles.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import { OidcLinkSection } from "./oidc-link-section.tsx";
import { PasswordSection } from "./password-section.tsx";

export function AccountPage() {
  const user = useSessionUser();
  if (!user) return null;
  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        <DocumentTitle title="Your account" />
        <h1 className="heading-l">Your account</h1>
        <SummaryList
          rows={[
            { label: "Name", value: user.name || "Not given" },
            { label: "Email address", value: user.email },
            {
              label: "Role",
              value: `${ROLE_NAMES[user.role]}: ${ROLE_WORDS[user.role]}`,
            },
          ]}
        />
        <p className="hint">Only an admin can change your name or role.</p>
        <PasswordSection user={user} />
        <OidcLinkSection user={user} />
        <section aria-labelledby="sessions-heading">
          <h2 id="sessions-heading" className="heading-m">
            Sign out everywhere
          </h2>
          <p>
            If you signed in on a computer you no longer use, or think someone
            else may be using your account, sign out of every session: this
            browser too.
          </p>
          <p>
            <Link
              className="button button--secondary"
              to={appPaths.signOut(true)}
            >
              Sign out of every session
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}
