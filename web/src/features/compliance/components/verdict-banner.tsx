// "Compliant" or "Not compliant" in words and an icon, how many checks failed, and which vehicle.
import type { Vehicle } from "@vics/shared";
import { NumberPlate } from "../../../components/number-plate.tsx";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { verdictSummary, type CheckBadge } from "../lib/check-badges.ts";
import { VehicleFacts } from "./vehicle-facts.tsx";

interface VerdictBannerProps {
  registration: string;
  compliant: boolean;
  badges: CheckBadge[];
  vehicle?: Vehicle;
  vehicleStatus: "pending" | "error" | "success";
  headingId: string;
}

export function VerdictBanner({
  registration,
  compliant,
  badges,
  vehicle,
  vehicleStatus,
  headingId,
}: VerdictBannerProps) {
  const status = compliant ? "pass" : "fail";
  return (
    <div className="compliance-verdict">
      <NumberPlate registration={registration} />
      <div className={`status-banner status-banner--${status}`}>
        <h2 id={headingId} className="status-banner__title">
          <StatusIcon status={status} />
          {compliant ? "Compliant" : "Not compliant"}
        </h2>
        <p className="status-banner__reason">{verdictSummary(badges)}</p>
      </div>
      <VehicleFacts vehicle={vehicle} status={vehicleStatus} />
    </div>
  );
}
