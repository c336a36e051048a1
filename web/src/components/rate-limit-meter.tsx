// The shell header's view of the plan's rate limit: "118 of 120 checks left this minute".
import { RATE_LIMIT_WINDOW_SECONDS } from "@vics/shared";
import { useRateLimit } from "../lib/rate-limit-store.ts";
import { useNow } from "../lib/use-now.ts";

// Below this share of the limit the meter says so in words, not only in colour.
const LOW_SHARE = 0.1;

const count = (value: number) => value.toLocaleString("en-GB");

function checksLeft(remaining: number, limit: number): string {
  if (remaining === 0)
    return `No checks left this minute (limit ${count(limit)})`;
  const noun = limit === 1 ? "check" : "checks";
  return `${count(remaining)} of ${count(limit)} ${noun} left this minute`;
}

// A new window starts with the full limit, but every member of staff shares the proxy's
// key, so some of it may already be used: "up to".
function checksAfterReset(limit: number): string {
  return `Up to ${count(limit)} ${limit === 1 ? "check" : "checks"} left this minute`;
}

export function RateLimitMeter() {
  const reading = useRateLimit();
  const now = useNow(1000);
  if (!reading) return null; // hidden until the first response

  const { limit, resetSeconds, receivedAt } = reading;
  const elapsed = Math.floor((now.getTime() - receivedAt) / 1000);
  const resetIn = Math.max(0, resetSeconds - Math.max(0, elapsed));
  // Once the window has reset, the latest Remaining no longer holds.
  const hasReset = resetIn === 0;
  const remaining = hasReset ? limit : reading.remaining;
  const low = remaining <= Math.floor(limit * LOW_SHARE);

  return (
    <div className={`rate-limit-meter${low ? " rate-limit-meter--low" : ""}`}>
      <p className="rate-limit-meter__text" role="status">
        {hasReset ? checksAfterReset(limit) : checksLeft(remaining, limit)}
        {low && remaining > 0 && <span> (running low)</span>}
      </p>
      <meter
        className="rate-limit-meter__bar"
        min={0}
        max={limit}
        low={Math.floor(limit * LOW_SHARE) + 1}
        optimum={limit}
        value={remaining}
        aria-label="Checks left this minute"
      />
      <p className="rate-limit-meter__reset">
        {resetIn > 0 && resetIn <= RATE_LIMIT_WINDOW_SECONDS
          ? `Limit resets in ${resetIn} s`
          : "Limit has reset"}
      </p>
    </div>
  );
}
