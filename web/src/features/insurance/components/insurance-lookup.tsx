// Runs the check for one valid registration and shows loading, the error panel or the result.
import { useEffect } from "react";
import { formatRegistration } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { isApiError } from "../../../lib/api-error.ts";
import { addRecentCheck } from "../../../lib/recent-checks.ts";
import { useInsurance } from "../api/get-insurance.ts";
import { InsuranceResult } from "./insurance-result.tsx";

export function InsuranceLookup({ registration }: { registration: string }) {
  const query = useInsurance(registration);
  const display = formatRegistration(registration);
  const { data, dataUpdatedAt, error } = query;

  useEffect(() => {
    if (!data) return;
    addRecentCheck({
      registration,
      kind: "insurance",
      outcome: data.insured ? "Insured" : "Not insured",
      checkedAt: new Date(dataUpdatedAt),
    });
  }, [registration, data, dataUpdatedAt]);

  useEffect(() => {
    if (isApiError(error) && error.code === "VEHICLE_NOT_FOUND")
      addRecentCheck({
        registration,
        kind: "insurance",
        outcome: "No vehicle found",
      });
  }, [registration, error]);

  let title = `Checking ${display}`;
  let announcement = `Checking ${display}…`;
  if (query.isError) {
    title = `Error: ${display}`;
    announcement = ""; // the error panel is an alert of its own
  } else if (query.isFetching) {
    // keep "Checking" while a re-check is in flight
  } else if (data) {
    title = `${display}: ${data.insured ? "Insured" : "Not insured"}`;
    announcement = `${display} is ${data.insured ? "insured" : "not insured"}.`;
  }

  return (
    <>
      <DocumentTitle title={`${title} – Insurance check`} />
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
        {data && !query.isError && <InsuranceResult record={data} />}
      </div>
    </>
  );
}
