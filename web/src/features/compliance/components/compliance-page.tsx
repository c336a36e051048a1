// The compliance check at "/compliance" and its shareable dashboard at "/compliance/:registration".
import { CheckPage } from "../../../components/check-page.tsx";
import { appPaths } from "../../../lib/app-paths.ts";
import { complianceQueryOptions } from "../api/get-compliance.ts";
import { ComplianceLookup } from "./compliance-lookup.tsx";
import "../compliance.css";

export function CompliancePage() {
  return (
    <CheckPage
      title="Compliance check"
      heading="Check a vehicle’s compliance"
      lead="Enter a registration number to see whether the vehicle may be on the road today: insurance, MOT, road tax and unpaid fines."
      submitLabel="Check compliance"
      pathFor={appPaths.compliance}
      queryKeyFor={(registration) =>
        complianceQueryOptions(registration).queryKey
      }
    >
      {(registration, focus) => (
        <ComplianceLookup registration={registration} focus={focus} />
      )}
    </CheckPage>
  );
}
