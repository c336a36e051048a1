// A run in progress: a progress bar with counts, rate and time left, a countdown while it waits
// for the rate limit or before a retry, what the run is doing when the service refuses a batch,
// and pause, resume and stop. The words for a screen
// reader change with the phase only, and a wait of a second or two is not worth saying.
import { useId, type Ref } from "react";
import { useNow } from "../../../lib/use-now.ts";
import type { RunProgress } from "../lib/fleet-types.ts";
import { count } from "../../../lib/count.ts";

interface RunProgressViewProps {
  headingRef?: Ref<HTMLHeadingElement>;
  progress: RunProgress;
  paused: boolean;
  /** False while resuming cannot help (the user must sign in again first). */
  canResume?: boolean;
  /** Stopped by the user; answers already asked for are still arriving. */
  stopping?: boolean;
  onPause: () => void;
  onResume: () => void;
  onStop: () => void;
}

/** Waits shorter than this are not announced: retries come and go within a second or two. */
const SPOKEN_WAIT_MS = 3000;

const STOPPING_WORDS =
  "Stopping. Nothing more is sent; the answers already on their way are kept, so resuming does not ask for them again.";

const plural = (value: number, one: string) =>
  `${value} ${value === 1 ? one : `${one}s`}`;

function timeLeft(seconds: number): string {
  if (seconds < 60)
    return `about ${plural(Math.max(1, Math.round(seconds)), "second")} left`;
  return `about ${plural(Math.round(seconds / 60), "minute")} left`;
}

function phaseWords(
  progress: RunProgress,
  paused: boolean,
  now: number,
  stopping: boolean,
): string {
  if (stopping) return STOPPING_WORDS;
  if (paused) return "Paused. Nothing more is sent until you resume.";
  const longWait =
    progress.phase === "waiting" &&
    (progress.waitUntil ?? 0) - now >= SPOKEN_WAIT_MS;
  if (!longWait) return "Checking.";
  return progress.message?.includes("rate limit")
    ? "Waiting for the rate limit."
    : "Waiting before trying again.";
}

export function RunProgressView({
  headingRef,
  progress,
  paused,
  canResume = true,
  stopping = false,
  onPause,
  onResume,
  onStop,
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
  // A rate or a time left is untrue while the run waits: it says how long it waits instead.
  const showPace =
    !paused &&
    waitingFor === undefined &&
    progress.ratePerSecond !== undefined &&
    progress.ratePerSecond > 0;

  return (
    <section className="run-progress" aria-labelledby={`${id}-heading`}>
      <h2
        id={`${id}-heading`}
        ref={headingRef}
        tabIndex={-1}
        className="heading-m"
      >
        {stopping ? "Stopping" : paused ? "Paused" : "Checking your list"}
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
          {count(done)} of {count(total)} {total === 1 ? "vehicle" : "vehicles"}{" "}
          checked ({percent}%)
        </strong>
        {notChecked > 0 && `, ${count(notChecked)} could not be checked`}
        {showPace && (
          <>
            . About {count(Math.round(progress.ratePerSecond ?? 0))} a second
            {progress.secondsLeft !== undefined &&
              `, ${timeLeft(progress.secondsLeft)}`}
          </>
        )}
        .
      </p>
      {!paused &&
        !stopping &&
        (waitingFor !== undefined || progress.phase === "running") &&
        waitWords && <p className="run-progress__wait">{waitWords}.</p>}
      <p className="visually-hidden" role="status">
        {phaseWords(progress, paused, now.getTime(), stopping)}
      </p>
      {stopping ? (
        <p>{STOPPING_WORDS}</p>
      ) : (
        <div className="button-group">
          {paused ? (
            canResume && (
              <button type="button" className="button" onClick={onResume}>
                Resume
              </button>
            )
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
            onClick={onStop}
          >
            Stop checking
          </button>
        </div>
      )}
      <p className="hint">
        Answers are saved in this browser as they arrive. Stopping, or closing
        this tab, keeps them: you can resume later, and only the vehicles not
        yet checked are sent.
      </p>
    </section>
  );
}
