// The shell header's view of the person's own limit: "Your checks left this minute: 118 of 120".
// It holds its place from the first paint, so nothing moves when the first answer arrives,
// and it speaks to screen readers only when checks run out or come back.
import { useState } from "react";
import { useRateLimit } from "../lib/rate-limit-store.ts";
import { useNow } from "../lib/use-now.ts";
import {
  meterAnnouncement,
  meterDetail,
  meterHeadline,
  meterLowBound,
  meterState,
  meterValue,
} from "./rate-limit-words.ts";

export function RateLimitMeter() {
  const reading = useRateLimit();
  const now = useNow(1000);
  const state = meterState(reading, now.getTime());
  const usedUp = state.kind === "used-up";

  // Adjusted while rendering (not in an effect), so the words and the announcement change together.
  const [wasUsedUp, setWasUsedUp] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  if (usedUp !== wasUsedUp) {
    setWasUsedUp(usedUp);
    setAnnouncement(meterAnnouncement(state, wasUsedUp) ?? "");
  }

  return (
    <div className={`rate-limit-meter rate-limit-meter--${state.kind}`}>
      <p className="rate-limit-meter__text">{meterHeadline(state)}</p>
      {state.kind === "unknown" ? (
        <div className="rate-limit-meter__bar" aria-hidden="true" />
      ) : (
        <meter
          className="rate-limit-meter__bar"
          min={0}
          max={state.limit}
          low={meterLowBound(state.limit)}
          optimum={state.limit}
          value={meterValue(state)}
          aria-label="Your checks left this minute"
        />
      )}
      <p className="rate-limit-meter__detail">{meterDetail(state)}</p>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}
