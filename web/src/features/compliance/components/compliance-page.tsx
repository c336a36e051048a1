// Placeholder for /compliance and /compliance/:registration until the compliance feature lands.
import { Link, useParams } from "react-router";
import { formatRegistration, parseRegistration } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { appPaths } from "../../../lib/app-paths.ts";

export function CompliancePage() {
  const { registration: param } = useParams();
  const parsed = param === undefined ? undefined : parseRegistration(param);

  return (
    <div className="column-two-thirds">
      <DocumentTitle title="Compliance check" />
      <h1 className="heading-l">Compliance check</h1>
      <p className="lead">Compliance checks are coming next.</p>
      <p>
        They will show whether a vehicle may be on the road: insurance, MOT,
        road tax and outstanding fines.
      </p>
      {parsed?.ok ? (
        <p>
          <Link to={appPaths.insurance(parsed.registration)}>
            Check insurance for {formatRegistration(parsed.registration)}
          </Link>
        </p>
      ) : (
        <p>
          <Link to={appPaths.home()}>Check a vehicle’s insurance</Link>
        </p>
      )}
    </div>
  );
}
