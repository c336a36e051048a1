// The shell around every view: skip link, header with who is signed in, "Sign out" and the
// rate-limit meter, the navigation of what their role can use, main, footer.
import { Suspense, type MouseEvent } from "react";
import { Link, Outlet } from "react-router";
import { LoadingMessage } from "../../components/loading-message.tsx";
import { RateLimitMeter } from "../../components/rate-limit-meter.tsx";
import { useSession, useSessionWatch } from "../../features/auth/index.ts";
import { appPaths } from "../../lib/app-paths.ts";
import { PrimaryNav, PrimaryNavPlaceholder } from "./primary-nav.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import { useFocusMainOnAreaChange } from "./use-focus-main-on-area-change.ts";
import { useScrollRestoration } from "./use-scroll-restoration.ts";

const MAIN_ID = "main-content";

function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  // Focus main directly: a hash change would go through the router's history.
  event.preventDefault();
  document.getElementById(MAIN_ID)?.focus();
}

/** "Signed in as" and "Sign out", hidden, in their place while the session is asked for. */
function AccountPlaceholder() {
  return (
    <div className="app-header__account" aria-hidden="true">
      <p className="app-header__user">Signed in as</p>
      <span className="app-header__sign-out">Sign out</span>
    </div>
  );
}

export function AppLayout() {
  useFocusMainOnAreaChange(MAIN_ID);
  useScrollRestoration();
  const session = useSession();
  useSessionWatch(session);
  const user = session.status === "signed-in" ? session.session.user : null;
  const pending = session.status === "pending";
  return (
    <>
      <a href={`#${MAIN_ID}`} className="skip-link" onClick={skipToMain}>
        Skip to main content
      </a>
      <header className={`app-header${pending ? " app-header--pending" : ""}`}>
        <div className="app-header__inner width-container">
          <Link to="/" className="app-header__product">
            VICS
            <span className="app-header__tagline">
              Vehicle insurance and compliance checks
            </span>
          </Link>
          {user && (
            <div className="app-header__account">
              <p className="app-header__user">
                Signed in as{" "}
                <Link to={appPaths.account()} className="app-header__link">
                  {user.name || user.email}
                </Link>
              </p>
              <SignOutButton user={user} />
            </div>
          )}
          {/* While who is signed in is being asked, the header and the navigation hold the
              room they will take, unseen: nothing below them moves when the answer comes. */}
          {pending && <AccountPlaceholder />}
          {(user || pending) && <RateLimitMeter />}
        </div>
      </header>
      {user && <PrimaryNav role={user.role} />}
      {pending && <PrimaryNavPlaceholder />}
      {/* main spans the page and the width container sits inside it: as a flex item of the
          page's column, the container's auto margins would shrink it to its content, so a
          page with little on it (Fleet check) sat off to the right. */}
      <main id={MAIN_ID} className="main" tabIndex={-1}>
        <div className="width-container">
          {/* Shown while a page that loads on demand is fetched on a first visit straight to it. */}
          <Suspense fallback={<LoadingMessage>Loading VICS…</LoadingMessage>}>
            <Outlet />
          </Suspense>
        </div>
      </main>
      <footer className="app-footer">
        <div className="width-container">
          <p>
            VICS checks vehicles against the Vehicle Insurance and Compliance
            Verification Service. Every check is recorded against the member of
            staff who made it.
          </p>
        </div>
      </footer>
    </>
  );
}
