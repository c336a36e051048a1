// Where the run stands and what can be done: progress with pause and stop while it runs here;
// a note when another tab is running it; resume when it is paused or stopped (a reload, a closed
// tab, the user's stop, a save failure); when finished, how many vehicles could not be checked,
// and a retry for just those. After the user acts, focus moves to the new state's heading.
// Starting a session takes a moment (this tab's last lock on the run must go, and the saved run
// is read back before anything is sent), so "Retrying…" or "Resuming…" shows from the click.
import { useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { BusyButton } from "../../../components/busy-button.tsx";
import { planRun } from "../lib/engine/run-plan.ts";
import { isNotChecked } from "@vics/fleet";
import { useFleetServices } from "../lib/fleet-services.ts";
import { isLive, startSession } from "../lib/run-registry.ts";
import type { RunView } from "../lib/use-run.ts";
import { takeResumeAfterSignIn } from "../lib/resume-after-sign-in.ts";
import { useRunsElsewhere } from "../lib/use-runs-elsewhere.ts";
import { AccessLostNotice } from "./access-lost-notice.tsx";
import { RunProgressView } from "./run-progress-view.tsx";
import { count } from "../../../lib/count.ts";

const vehicles = (value: number) =>
  `${count(value)} ${value === 1 ? "vehicle" : "vehicles"}`;

type Mode = "live" | "elsewhere" | "stopped" | "finished";

const WAY_FORWARD = "Try again; if it keeps failing, reload the page.";

export function RunStatusPanel({ view }: { view: RunView }) {
  const services = useFleetServices();
  const elsewhere = useRunsElsewhere();
  // What the user has just asked for, in words, until its session is there or could not start.
  const [starting, setStarting] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const { run, results, resultsVersion, session } = view;
  const plan = useMemo(
    () => planRun(run, results),
    // The results map is updated in place; its version says when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [run, results, resultsVersion],
  );
  const notChecked = useMemo(
    () =>
      [...results.values()]
        .filter(isNotChecked)
        .map((result) => result.registration),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results, resultsVersion],
  );

  const left = plan.registrations.length;
  const mode: Mode =
    session && isLive(session) && view.progress
      ? "live"
      : elsewhere.has(run.id)
        ? "elsewhere"
        : left > 0
          ? "stopped"
          : "finished";

  // The user's own action changed what the panel shows: take them to it.
  const acted = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!acted.current) return;
    acted.current = false;
    heading.current?.focus();
  }, [mode]);

  function begin(registrations?: readonly string[]) {
    setStarting(
      registrations !== undefined
        ? `Retrying ${vehicles(registrations.length)}…`
        : `Resuming: ${vehicles(left)} still to check…`,
    );
    setProblem(undefined);
    void start(registrations);
  }

  async function start(registrations?: readonly string[]) {
    acted.current = true;
    const retry = registrations !== undefined;
    try {
      await startSession(services, run.id, registrations);
    } catch (error) {
      const reason = (
        error instanceof Error ? error.message : String(error)
      ).replace(/\.$/, "");
      // Some reasons carry their own way forward ("close it and try again").
      const forward = /try again/i.test(reason) ? "" : ` ${WAY_FORWARD}`;
      setProblem(
        `The ${retry ? "retry" : "check"} could not be started: ${reason}.${forward}`,
      );
    } finally {
      setStarting(undefined);
    }
  }

  // Back from signing in again for this run: it goes on. Live on this page, the registry has
  // resumed it already; after a page load (the provider's sign-in), it starts again here.
  const resumeAfterSignIn = useEffectEvent(() => {
    if (mode === "live" && !view.accessLost) takeResumeAfterSignIn(run.id);
    else if (mode === "stopped" && takeResumeAfterSignIn(run.id)) void start();
  });
  useEffect(() => resumeAfterSignIn(), [mode, view.accessLost, run.id]);

  // Outside both views, so it is in the page before its words change.
  const spoken = (
    <p className="visually-hidden" role="status">
      {starting ??
        (mode === "finished"
          ? "The check has finished."
          : mode === "stopped" && run.status === "cancelled"
            ? "The check has stopped."
            : "")}
    </p>
  );

  if (mode === "live" && session && view.progress)
    return (
      <>
        {spoken}
        {view.accessLost && (
          <AccessLostNotice lost={view.accessLost} runId={run.id} />
        )}
        <RunProgressView
          headingRef={heading}
          progress={view.progress}
          paused={run.status === "paused"}
          canResume={!view.accessLost}
          stopping={view.stopping}
          onPause={() => session.pause()}
          onResume={() => session.resume()}
          onStop={() => {
            acted.current = true;
            session.cancel();
            // The buttons give way to "Stopping": keyboard users stay at the run's heading.
            heading.current?.focus();
          }}
        />
      </>
    );

  return (
    <>
      {spoken}
      <section className="run-status" aria-labelledby="run-status-heading">
        <h2
          id="run-status-heading"
          ref={heading}
          tabIndex={-1}
          className="run-status__title"
        >
          {mode === "elsewhere"
            ? "This check is running in another tab or window"
            : mode === "finished"
              ? `Finished: ${vehicles(plan.total)} checked.${notChecked.length > 0 ? ` ${vehicles(notChecked.length)} could not be checked.` : ""}`
              : run.status === "cancelled"
                ? "You stopped this check before it finished"
                : run.status === "paused"
                  ? "This check is paused"
                  : "This check stopped before it finished"}
        </h2>
        {view.error && (
          <p className="error-message" role="alert">
            {view.error}
          </p>
        )}
        {mode === "elsewhere" && (
          <p>
            {vehicles(plan.done)} of {count(plan.total)} checked so far. Carry
            on there; this page shows the answers saved so far, and offers to
            resume if that tab closes.
          </p>
        )}
        {mode === "stopped" && (
          <>
            <p>
              {vehicles(plan.done)} of {count(plan.total)} checked;{" "}
              {vehicles(left)} still to check.
              {run.status === "running" &&
                " The page was closed or reloaded while it ran."}{" "}
              Resuming checks only those: nothing already checked is checked
              again.
            </p>
            <BusyButton
              busy={starting !== undefined}
              busyLabel="Resuming…"
              onClick={() => begin()}
            >
              Resume checking
            </BusyButton>
          </>
        )}
        {mode === "finished" && notChecked.length > 0 && (
          <BusyButton
            busy={starting !== undefined}
            busyLabel="Retrying…"
            onClick={() => begin(notChecked)}
          >
            {`Retry the ${vehicles(notChecked.length)} not checked`}
          </BusyButton>
        )}
        {starting && <p className="run-status__starting">{starting}</p>}
        {problem && (
          <p className="error-message" role="alert">
            {problem}
          </p>
        )}
      </section>
    </>
  );
}
