// The answer for one vehicle: plate, insured or not, policy, vehicle, freshness, and the compliance link.
import { Link } from "react-router";
import { formatRegistration } from "@vics/shared";
import { CheckFreshness } from "../../../components/check-freshness.tsx";
import { DataAsOf } from "../../../components/data-as-of.tsx";
import type { InsuranceAnswer } from "../../../lib/get-insurance.ts";
import { CheckRecord } from "./check-record.tsx";
import { NumberPlate } from "../../../components/number-plate.tsx";
import { PrintedBy } from "../../../components/printed-by.tsx";
import { appPaths } from "../../../lib/app-paths.ts";
import {
  daysBetween,
  formatDateTime,
  formatRelativeTime,
  ukToday,
} from "../../../lib/dates.ts";
import { useNow } from "../../../lib/use-now.ts";
import { InsuranceStatus } from "./insurance-status.tsx";
import { PolicyDetails } from "./policy-details.tsx";
import { VehicleDetails } from "./vehicle-details.tsx";

const RELATIVE_DAYS = 30;

interface InsuranceResultProps {
  record: InsuranceAnswer;
  /** The day asked ("YYYY-MM-DD"); undefined when the check is about today. */
  date?: string;
  /** When this answer was fetched (ISO timestamp). */
  checkedAt: string;
  rechecking: boolean;
  onCheckAgain: () => void;
}

export function InsuranceResult({
  record,
  date,
  checkedAt,
  rechecking,
  onCheckAgain,
}: InsuranceResultProps) {
  const now = useNow();
  const today = ukToday(now);
  const display = formatRegistration(record.registration);
  // "(3 days ago)" helps for recent changes; beyond a month the date says enough.
  const recentlyUpdated =
    Math.abs(daysBetween(today, record.lastUpdated)) < RELATIVE_DAYS;

  return (
    <section className="result" aria-labelledby="insurance-status-heading">
      <PrintedBy />
      <NumberPlate registration={record.registration} />
      <InsuranceStatus
        record={record}
        day={date ?? today}
        onADate={date !== undefined}
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
      <DataAsOf dataAsOf={record.dataAsOf} sources={["insurance"]} />
      <p className="result__updated">
        Record last updated{" "}
        <time dateTime={record.lastUpdated}>
          {formatDateTime(record.lastUpdated)}
        </time>
        {recentlyUpdated && (
          // Its own element, so print can leave it out: "17 hours ago" is untrue on paper.
          <span className="relative-time">
            {` (${formatRelativeTime(record.lastUpdated, now)})`}
          </span>
        )}
      </p>
      <CheckFreshness
        lastChecked={checkedAt}
        rechecking={rechecking}
        onCheckAgain={onCheckAgain}
      />
      {date !== undefined && (
        <CheckRecord record={record} day={date} checkedAt={checkedAt} />
      )}
      <p className="result__next">
        <Link to={appPaths.compliance(record.registration)}>
          Check compliance for {display}
        </Link>
      </p>
    </section>
  );
}
