// The insurance check at "/" and its shareable result at "/vehicle/:registration".
import { CheckPage } from "../../../components/check-page.tsx";
import { appPaths } from "../../../lib/app-paths.ts";
import { insuranceQueryOptions } from "../../../lib/get-insurance.ts";
import { InsuranceLookup } from "./insurance-lookup.tsx";

export function InsurancePage() {
  return (
    <CheckPage
      title="Insurance check"
      heading="Check a vehicle’s insurance"
      lead="Enter a registration number to see whether the vehicle is insured today, or on a date."
      submitLabel="Check insurance"
      onADate
      pathFor={appPaths.insurance}
      queryKeyFor={(registration) =>
        insuranceQueryOptions(registration).queryKey
      }
    >
      {(registration, focus, date) => (
        <InsuranceLookup
          registration={registration}
          focus={focus}
          date={date}
        />
      )}
    </CheckPage>
  );
}
