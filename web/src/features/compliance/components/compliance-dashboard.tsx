// The answer for one vehicle: verdict with the vehicle, the four checks, when it was checked, and links.
import { Link } from "react-router";
import {
  formatRegistration,
  type ComplianceRecord,
  type InsuranceRecord,
} from "@vics/shared";
import { appPaths } from "../../../lib/app-paths.ts";
import { ukToday } from "../../../lib/dates.ts";
import { useNow } from "../../../lib/use-now.ts";
import { checkBadges } from "../lib/check-badges.ts";
import { CheckBadgeList } from "./check-badge-list.tsx";
import { CheckFreshness } from "../../../components/check-freshness.tsx";
import { FactOrigins } from "../../../components/data-as-of.tsx";
import { PrintedBy } from "../../../components/printed-by.tsx";
import { VerdictBanner } from "./verdict-banner.tsx";

interface ComplianceDashboardProps {
  record: ComplianceRecord;
  /** The insurance record, asked for only when the compliance record lacks its vehicle or insurance details. */
  insurance?: InsuranceRecord;
  insuranceStatus: "pending" | "error" | "success";
  rechecking: boolean;
  onCheckAgain: () => void;
}

export function ComplianceDashboard({
  record,
  insurance,
  insuranceStatus,
  rechecking,
  onCheckAgain,
}: ComplianceDashboardProps) {
  const today = ukToday(useNow());
  const badges = checkBadges(record, today, insurance);
  return (
    <section
      className="compliance-record"
      aria-labelledby="compliance-verdict-heading"
    >
      <PrintedBy />
      <VerdictBanner
        registration={record.registration}
        compliant={record.compliant}
        badges={badges}
        vehicle={record.vehicle ?? insurance?.vehicle}
        vehicleStatus={record.vehicle ? "success" : insuranceStatus}
        headingId="compliance-verdict-heading"
      />
      <CheckBadgeList badges={badges} />
      <FactOrigins
        dataAsOf={record.dataAsOf}
        factSources={record.factSources}
        sources={["insurance", "mot", "tax", "fines"]}
      />
      <CheckFreshness
        lastChecked={record.lastChecked}
        rechecking={rechecking}
        onCheckAgain={onCheckAgain}
      />
      <p className="compliance-record__links">
        <Link to={appPaths.insurance(record.registration)}>
          View insurance details for {formatRegistration(record.registration)}
        </Link>
      </p>
    </section>
  );
}
