// Runs the compliance check for one valid registration and shows its dashboard.
import type { ComplianceRecord } from "@vics/shared";
import { CheckLookup } from "../../../components/check-lookup.tsx";
import { formatTimeOnDate } from "../../../lib/dates.ts";
import { useInsurance } from "../../../lib/get-insurance.ts";
import { useCompliance } from "../api/get-compliance.ts";
import { ComplianceDashboard } from "./compliance-dashboard.tsx";

const outcome = (record: ComplianceRecord) =>
  record.compliant ? "Compliant" : "Not compliant";

export function ComplianceLookup({ registration }: { registration: string }) {
  const query = useCompliance(registration);
  // A ComplianceRecord has no vehicle, so the banner takes it from the insurance check. Asked
  // for only once the verdict has arrived: a vehicle that is not found, or a rate limit that is
  // used up, then costs no second request. A failure here never hides the verdict.
  const vehicle = useInsurance(registration, query.isSuccess);

  function checkAgain() {
    void query.refetch();
    // A vehicle that failed to load gets another chance; a loaded one rarely changes.
    if (vehicle.isError) void vehicle.refetch();
  }

  return (
    <CheckLookup
      registration={registration}
      kind="compliance"
      title="Compliance check"
      query={query}
      outcome={outcome}
      announcement={(record, display) =>
        `${display}: ${outcome(record)}. Checked at ${formatTimeOnDate(record.lastChecked)}.`
      }
    >
      {(record) => (
        <ComplianceDashboard
          record={record}
          vehicle={vehicle.data}
          vehicleStatus={vehicle.status}
          rechecking={query.isFetching}
          onCheckAgain={checkAgain}
        />
      )}
    </CheckLookup>
  );
}
