// When the check was made, and a button to make it again.
import { BusyButton } from "../../../components/busy-button.tsx";
import { formatTimeOnDate } from "../../../lib/dates.ts";

interface CheckFreshnessProps {
  lastChecked: string;
  rechecking: boolean;
  onCheckAgain: () => void;
}

export function CheckFreshness({
  lastChecked,
  rechecking,
  onCheckAgain,
}: CheckFreshnessProps) {
  return (
    <div className="check-freshness">
      <p className="check-freshness__time">
        Checked at{" "}
        <time dateTime={lastChecked}>{formatTimeOnDate(lastChecked)}</time>
      </p>
      <BusyButton
        busy={rechecking}
        busyLabel="Checking again…"
        onClick={onCheckAgain}
        secondary
      >
        Check again
      </BusyButton>
    </div>
  );
}
