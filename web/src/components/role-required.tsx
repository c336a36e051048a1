// Shown instead of a page the signed-in user's role cannot use (arrived at by a link, or after
// an admin changed their role): what their role lets them do, what the page needs, who to ask.
import { Link } from "react-router";
import type { Role } from "@vics/shared";
import { appPaths } from "../lib/app-paths.ts";
import { roleRequiredWords } from "../lib/roles.ts";
import { DocumentTitle } from "./document-title.tsx";

interface RoleRequiredProps {
  role: Role;
  needed: Role;
}

export function RoleRequired({ role, needed }: RoleRequiredProps) {
  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        <DocumentTitle title="Your role does not allow this page" />
        <h1 className="heading-l">Your role does not allow this page</h1>
        <p>{roleRequiredWords(role, needed)}</p>
        <p>
          <Link to={appPaths.home()}>Go to the insurance check</Link>
        </p>
      </div>
    </div>
  );
}
