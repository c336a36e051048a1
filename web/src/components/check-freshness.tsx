// When the check was made, and a button to make it again.
import { BusyButton } from "./busy-button.tsx";
import { CheckedAt } from "./checked-at.tsx";

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
      <CheckedAt className="check-freshness__time" timestamp={lastChecked} />
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
