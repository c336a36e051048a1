// The compliance check at "/compliance" and its shareable dashboard at "/compliance/:registration".
import { useQueryClient } from "@tanstack/react-query";
import { Navigate, useNavigate, useParams } from "react-router";
import { formatRegistration, parseRegistration } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { RecentChecks } from "../../../components/recent-checks.tsx";
import { RegistrationForm } from "../../../components/registration-form.tsx";
import { appPaths } from "../../../lib/app-paths.ts";
import { complianceQueryOptions } from "../api/get-compliance.ts";
import { ComplianceLookup } from "./compliance-lookup.tsx";
import "../compliance.css";

export function CompliancePage() {
  const { registration: param } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const parsed = param === undefined ? undefined : parseRegistration(param);

  // "/compliance/ab12-cde" shows the same vehicle at its canonical, shareable URL.
  if (parsed?.ok && parsed.registration !== param)
    return <Navigate replace to={appPaths.compliance(parsed.registration)} />;

  const registration = parsed?.ok ? parsed.registration : undefined;

  function handleSubmit(next: string) {
    if (next === registration) {
      // Same vehicle again: the staff member wants a fresh answer.
      void queryClient.refetchQueries({
        queryKey: complianceQueryOptions(next).queryKey,
      });
    } else {
      void navigate(appPaths.compliance(next));
    }
  }

  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        {!registration && (
          <DocumentTitle
            title={parsed ? "Error: Compliance check" : "Compliance check"}
          />
        )}
        <div className="compliance-intro">
          <h1 className="heading-l">Check a vehicle’s compliance</h1>
          <p className="lead">
            Enter a registration number to see whether the vehicle may be on the
            road today: insurance, MOT, road tax and unpaid fines.
          </p>
        </div>
        <RegistrationForm
          submitLabel="Check compliance"
          onSubmit={handleSubmit}
          defaultValue={registration ? formatRegistration(registration) : param}
          initialError={parsed && !parsed.ok ? parsed.message : undefined}
        />
        {registration && <ComplianceLookup registration={registration} />}
      </div>
      <aside className="column-one-third" aria-label="Recent checks">
        <RecentChecks />
      </aside>
    </div>
  );
}
