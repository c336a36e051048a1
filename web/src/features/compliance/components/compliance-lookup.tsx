// Runs the check for one valid registration and shows loading, the error panel or the dashboard.
import { useEffect } from "react";
import { formatRegistration } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { isApiError } from "../../../lib/api-error.ts";
import { formatTimeOnDate } from "../../../lib/dates.ts";
import { addRecentCheck } from "../../../lib/recent-checks.ts";
import { useCompliance } from "../api/get-compliance.ts";
import { useVehicleRecord } from "../api/get-vehicle.ts";
import { ComplianceDashboard } from "./compliance-dashboard.tsx";

function verdictWords(compliant: boolean): string {
  return compliant ? "Compliant" : "Not compliant";
}

export function ComplianceLookup({ registration }: { registration: string }) {
  const query = useCompliance(registration);
  const vehicle = useVehicleRecord(registration, query.isSuccess);
  const display = formatRegistration(registration);
  const { data, dataUpdatedAt, error } = query;

  useEffect(() => {
    if (!data) return;
    addRecentCheck({
      registration,
      kind: "compliance",
      outcome: verdictWords(data.compliant),
      checkedAt: new Date(dataUpdatedAt),
    });
  }, [registration, data, dataUpdatedAt]);

  useEffect(() => {
    if (isApiError(error) && error.code === "VEHICLE_NOT_FOUND")
      addRecentCheck({
        registration,
        kind: "compliance",
        outcome: "No vehicle found",
      });
  }, [registration, error]);

  function checkAgain() {
    void query.refetch();
    // A vehicle that failed to load gets another chance; a loaded one rarely changes.
    if (vehicle.isError) void vehicle.refetch();
  }

  let title = `Checking ${display}`;
  let announcement = `Checking ${display}…`;
  if (query.isError) {
    title = `Error: ${display}`;
    announcement = ""; // the error panel is an alert of its own
  } else if (query.isFetching && data) {
    announcement = `Checking ${display} again…`;
  } else if (data) {
    title = `${display}: ${verdictWords(data.compliant)}`;
    announcement = `${display}: ${verdictWords(data.compliant)}. Checked at ${formatTimeOnDate(data.lastChecked)}.`;
  }

  return (
    <>
      <DocumentTitle title={`${title} – Compliance check`} />
      {/* Outside the aria-busy region, which would silence it. */}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <div className="lookup" aria-busy={query.isFetching}>
        {query.isPending && !query.isError && (
          <LoadingMessage>{`Checking ${display}…`}</LoadingMessage>
        )}
        {query.isError && (
          <ErrorPanel
            error={query.error}
            onRetry={() => void query.refetch()}
            registration={registration}
            retrying={query.isFetching}
          />
        )}
        {data && !query.isError && (
          <ComplianceDashboard
            record={data}
            vehicle={vehicle.data}
            vehicleStatus={vehicle.status}
            rechecking={query.isFetching}
            onCheckAgain={checkAgain}
          />
        )}
      </div>
    </>
  );
}
