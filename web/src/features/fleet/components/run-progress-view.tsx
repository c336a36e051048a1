// A run in progress: a progress bar with counts, rate and time left, a countdown while it waits
// for the rate limit or before a retry, and pause, resume and cancel. The words for a screen
// reader change only with the phase, not with every count.
import { useId } from "react";
import { useNow } from "../../../lib/use-now.ts";
import type { RunProgress } from "../lib/fleet-types.ts";

interface RunProgressViewProps {
  progress: RunProgress;
  paused: boolean;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}

const count = (value: number) => value.toLocaleString("en-GB");

function timeLeft(seconds: number): string {
  if (seconds < 60)
    return `about ${Math.max(1, Math.round(seconds))} seconds left`;
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} minute${minutes === 1 ? "" : "s"} left`;
}

/** Without numbers, so that it changes, and is read out, only when the phase does. */
function phaseWords(progress: RunProgress, paused: boolean): string {
  if (paused) return "Paused. Nothing more is sent until you resume.";
  if (progress.phase !== "waiting") return "Checking.";
  return progress.message?.includes("rate limit")
    ? "Waiting for the rate limit."
    : "Waiting before trying again.";
}

export function RunProgressView({
  progress,
  paused,
  onPause,
  onResume,
  onCancel,
}: RunProgressViewProps) {
  const id = useId();
  const now = useNow(1000);
  const { done, total, notChecked } = progress;
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  const waitingFor =
    progress.phase === "waiting" && progress.waitUntil !== undefined
      ? Math.max(0, Math.ceil((progress.waitUntil - now.getTime()) / 1000))
      : undefined;
  const waitWords = progress.message?.replace(
    /\d+ s\b/,
    `${waitingFor ?? 0} s`,
  );

  return (
    <section className="run-progress" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="heading-m">
        {paused ? "Paused" : "Checking your list"}
      </h2>
      <label className="visually-hidden" htmlFor={`${id}-bar`}>
        Vehicles checked
      </label>
      <progress
        id={`${id}-bar`}
        className="run-progress__bar"
        max={total}
        value={done}
      >
        {percent}%
      </progress>
      <p className="run-progress__counts">
        <strong>
          {count(done)} of {count(total)} vehicles checked ({percent}%)
        </strong>
        {notChecked > 0 && `, ${count(notChecked)} could not be checked`}
        {!paused &&
          progress.ratePerSecond !== undefined &&
          progress.ratePerSecond > 0 && (
            <>
              . About {count(Math.round(progress.ratePerSecond))} a second
              {progress.secondsLeft !== undefined &&
                `, ${timeLeft(progress.secondsLeft)}`}
            </>
          )}
        .
      </p>
      {!paused && waitingFor !== undefined && waitWords && (
        <p className="run-progress__wait">{waitWords}.</p>
      )}
      <p className="visually-hidden" role="status">
        {phaseWords(progress, paused)}
      </p>
      <div className="button-group">
        {paused ? (
          <button type="button" className="button" onClick={onResume}>
            Resume
          </button>
        ) : (
          <button
            type="button"
            className="button button--secondary"
            onClick={onPause}
          >
            Pause
          </button>
        )}
        <button
          type="button"
          className="button button--secondary"
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
      <p className="hint">
        Results are saved in this browser as they arrive. If you close this tab,
        you can resume the check later without losing them.
      </p>
    </section>
  );
}
