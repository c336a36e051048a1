// The answer for one vehicle: plate, insured or not, policy, vehicle, freshness, and the compliance link.
import { Link } from "react-router";
import { formatRegistration, type InsuranceRecord } from "@vics/shared";
import { NumberPlate } from "../../../components/number-plate.tsx";
import { appPaths } from "../../../lib/app-paths.ts";
import {
  formatDateTime,
  formatRelativeTime,
  todayUtc,
} from "../../../lib/dates.ts";
import { useNow } from "../../../lib/use-now.ts";
import { InsuranceStatus } from "./insurance-status.tsx";
import { PolicyDetails } from "./policy-details.tsx";
import { VehicleDetails } from "./vehicle-details.tsx";

export function InsuranceResult({ record }: { record: InsuranceRecord }) {
  const now = useNow();
  const today = todayUtc(now);
  const display = formatRegistration(record.registration);

  return (
    <section className="result" aria-labelledby="insurance-status-heading">
      <NumberPlate registration={record.registration} />
      <InsuranceStatus
        record={record}
        today={today}
        headingId="insurance-status-heading"
      />
      <div className="result__sections">
        <PolicyDetails
          policy={record.policy}
          insured={record.insured}
          today={today}
        />
        <VehicleDetails vehicle={record.vehicle} />
      </div>
      <p className="result__updated">
        Record last updated {formatDateTime(record.lastUpdated)} (
        <time dateTime={record.lastUpdated}>
          {formatRelativeTime(record.lastUpdated, now)}
        </time>
        )
      </p>
      <p className="result__next">
        <Link to={appPaths.compliance(record.registration)}>
          Check compliance for {display}
        </Link>
      </p>
    </section>
  );
}
