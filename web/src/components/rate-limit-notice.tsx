// The 429 countdown: "Trying again in N seconds", then an automatic retry, or a manual one if cancelled.
import { useCountdown } from "../lib/use-countdown.ts";

interface RateLimitNoticeProps {
  waitSeconds: number;
  onRetry: () => void;
  retrying: boolean;
}

function seconds(count: number): string {
  return count === 1 ? "1 second" : `${count} seconds`;
}

export function RateLimitNotice({
  waitSeconds,
  onRetry,
  retrying,
}: RateLimitNoticeProps) {
  const countdown = useCountdown(waitSeconds, onRetry);

  if (retrying) return <p className="error-panel__timer">Trying again now…</p>;
  if (countdown.running) {
    return (
      <>
        {/* role="timer" is not announced on every tick, unlike a live region. */}
        <p className="error-panel__timer" role="timer">
          Trying again in {seconds(countdown.secondsLeft)}.
        </p>
        <button
          type="button"
          className="button button--secondary"
          onClick={countdown.cancel}
        >
          Cancel automatic retry
        </button>
      </>
    );
  }
  return (
    <>
      {countdown.secondsLeft > 0 && (
        <p className="error-panel__timer">Automatic retry cancelled.</p>
      )}
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </>
  );
}
