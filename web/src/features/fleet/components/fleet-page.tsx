// Placeholder for /fleet until the bulk (fleet) check lands: says so, and what a fleet
// manager can do in the meantime.
import { Link } from "react-router";
import { BULK_MAX_REGISTRATIONS, PLAN_LIMITS } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { appPaths } from "../../../lib/app-paths.ts";

const count = (value: number) => value.toLocaleString("en-GB");

export function FleetPage() {
  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        <DocumentTitle title="Fleet check" />
        <h1 className="heading-l">Fleet check</h1>
        <p className="lead">Fleet check: coming next.</p>
        <p>
          You will be able to check a list of up to{" "}
          {count(BULK_MAX_REGISTRATIONS)} registrations at once.
        </p>

        <h2 className="heading-m">What you can do now</h2>
        <p>
          Check vehicles one at a time with the{" "}
          <Link to={appPaths.home()}>insurance check</Link> or the{" "}
          <Link to={appPaths.compliance()}>compliance check</Link>.
        </p>

        <h2 className="heading-m">If you have a large fleet</h2>
        <p>
          Ask your administrator for an API key on the fleet plan. It lets your
          own systems use the VICS API directly, for up to{" "}
          {count(PLAN_LIMITS.fleet)} checks a minute.
        </p>
        <p>
          Your administrator can give you the API guide (
          <code>docs/api.md</code>).
        </p>
      </div>
    </div>
  );
}
