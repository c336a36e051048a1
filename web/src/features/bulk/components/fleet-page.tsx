// Placeholder for /fleet until the bulk (fleet) check lands.
import { Link } from "react-router";
import { BULK_MAX_REGISTRATIONS } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { appPaths } from "../../../lib/app-paths.ts";

export function FleetPage() {
  return (
    <div className="column-two-thirds">
      <DocumentTitle title="Fleet check" />
      <h1 className="heading-l">Fleet check</h1>
      <p className="lead">Fleet check: coming next.</p>
      <p>
        Fleet managers will be able to check up to{" "}
        {BULK_MAX_REGISTRATIONS.toLocaleString("en-GB")} registrations at once.
      </p>
      <p>
        <Link to={appPaths.home()}>Check one vehicle’s insurance</Link>
      </p>
    </div>
  );
}
