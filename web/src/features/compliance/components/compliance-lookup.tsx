// Runs the compliance check for one valid registration and shows its dashboard.
import type { ComplianceRecord } from "@vics/shared";
import { CheckLookup } from "../../../components/check-lookup.tsx";
import type { FocusRequest } from "../../../components/check-page.tsx";
import { formatTimeOnDate } from "../../../lib/dates.ts";
import { useInsurance } from "../../../lib/get-insurance.ts";
import { lazyView, useLazyView } from "../../../lib/lazy-view.ts";
import { useCompliance } from "../api/get-compliance.ts";

// Loads while the check runs: the first page of a visit does without it.
const dashboardView = lazyView(
  async () => (await import("./compliance-dashboard.tsx")).ComplianceDashboard,
);
const ComplianceDashboard = dashboardView.View;

const outcome = (record: ComplianceRecord) =>
  record.compliant ? "Compliant" : "Not compliant";

interface ComplianceLookupProps {
  registration: string;
  focus?: FocusRequest;
}

export function ComplianceLookup({
  registration,
  focus,
}: ComplianceLookupProps) {
  const query = useCompliance(registration);
  const ready = useLazyView(dashboardView);
  const record = query.data;
  // The record usually carries its vehicle and insurance details (decision 008). Without them
  // the insurance check fills in, asked for only once the verdict has arrived: a vehicle that
  // is not found, or a used-up rate limit, then costs no second request. A failure here never
  // hides the verdict.
  const insurance = useInsurance(
    registration,
    query.isSuccess &&
      (record?.vehicle === undefined ||
        record.details?.insurance === undefined),
  );

  function checkAgain() {
    void query.refetch();
    // An insurance record that failed to load gets another chance; a loaded one rarely changes.
    if (insurance.isError) void insurance.refetch();
  }

  return (
    <CheckLookup
      registration={registration}
      kind="compliance"
      title="Compliance check"
      query={query}
      focus={focus}
      ready={ready}
      outcome={outcome}
      verdict={(record) => (record.compliant ? "compliant" : "not-compliant")}
      announcement={(record, display) =>
        `${display}: ${outcome(record)}. Checked at ${formatTimeOnDate(record.lastChecked)}.`
      }
    >
      {(record) => (
        <ComplianceDashboard
          record={record}
          insurance={insurance.data}
          insuranceStatus={insurance.status}
          rechecking={query.isFetching}
          onCheckAgain={checkAgain}
        />
      )}
    </CheckLookup>
  );
}
