// The insurance check at "/" and its shareable result at "/vehicle/:registration".
import { useQueryClient } from "@tanstack/react-query";
import { Navigate, useNavigate, useParams } from "react-router";
import { formatRegistration, parseRegistration } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { RecentChecks } from "../../../components/recent-checks.tsx";
import { RegistrationForm } from "../../../components/registration-form.tsx";
import { appPaths } from "../../../lib/app-paths.ts";
import { insuranceQueryOptions } from "../api/get-insurance.ts";
import { InsuranceLookup } from "./insurance-lookup.tsx";

export function InsurancePage() {
  const { registration: param } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const parsed = param === undefined ? undefined : parseRegistration(param);

  // "/vehicle/ab12-cde" shows the same vehicle at its canonical, shareable URL.
  if (parsed?.ok && parsed.registration !== param)
    return <Navigate replace to={appPaths.insurance(parsed.registration)} />;

  const registration = parsed?.ok ? parsed.registration : undefined;

  function handleSubmit(next: string) {
    if (next === registration) {
      // Same vehicle again: the staff member wants a fresh answer.
      void queryClient.refetchQueries({
        queryKey: insuranceQueryOptions(next).queryKey,
      });
    } else {
      void navigate(appPaths.insurance(next));
    }
  }

  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        {!registration && (
          <DocumentTitle
            title={parsed ? "Error: Insurance check" : "Insurance check"}
          />
        )}
        <h1 className="heading-l">Check a vehicle’s insurance</h1>
        <p className="lead">
          Enter a registration number to see whether the vehicle is insured
          today.
        </p>
        <RegistrationForm
          submitLabel="Check insurance"
          onSubmit={handleSubmit}
          defaultValue={registration ? formatRegistration(registration) : param}
          initialError={parsed && !parsed.ok ? parsed.message : undefined}
        />
        {registration && <InsuranceLookup registration={registration} />}
      </div>
      <aside className="column-one-third" aria-label="Recent checks">
        <RecentChecks />
      </aside>
    </div>
  );
}
