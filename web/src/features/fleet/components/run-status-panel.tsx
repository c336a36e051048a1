// Where the run stands and what can be done: progress with pause and cancel while it runs; resume
// when it stopped (a reload, a closed tab, a cancel, a save failure); when it finished, how many
// vehicles could not be checked, and a retry for just those.
import { useMemo, useState } from "react";
import { BusyButton } from "../../../components/busy-button.tsx";
import { planRun } from "../lib/engine/run-plan.ts";
import { isNotChecked } from "../lib/engine/result-assembly.ts";
import { useFleetServices } from "../lib/fleet-services.ts";
import { isLive, startSession } from "../lib/run-registry.ts";
import type { RunView } from "../lib/use-run.ts";
import { RunProgressView } from "./run-progress-view.tsx";

const count = (value: number) => value.toLocaleString("en-GB");
const vehicles = (value: number) =>
  `${count(value)} ${value === 1 ? "vehicle" : "vehicles"}`;

export function RunStatusPanel({ view }: { view: RunView }) {
  const services = useFleetServices();
  const [starting, setStarting] = useState(false);
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

  async function begin(registrations?: readonly string[]) {
    setStarting(true);
    setProblem(undefined);
    try {
      await startSession(services, run.id, registrations);
    } catch (error) {
      setProblem(
        `The check could not be started: ${error instanceof Error ? error.message : String(error)}. Try again.`,
      );
    } finally {
      setStarting(false);
    }
  }

  if (session && isLive(session) && view.progress)
    return (
      <RunProgressView
        progress={view.progress}
        paused={run.status === "paused"}
        onPause={() => session.pause()}
        onResume={() => session.resume()}
        onCancel={() => session.cancel()}
      />
    );

  const left = plan.registrations.length;
  return (
    <div className="run-status" role="region" aria-label="Progress">
      {view.error && (
        <p className="error-message" role="alert">
          {view.error}
        </p>
      )}
      {left > 0 ? (
        <>
          <p className="run-status__title">
            {run.status === "cancelled"
              ? "You cancelled this check before it finished."
              : "This check stopped before it finished."}{" "}
            {vehicles(plan.done)} of {count(plan.total)} checked;{" "}
            {vehicles(left)} still to check.
          </p>
          <p>
            Resuming checks only those: nothing already checked is checked
            again.
          </p>
          <BusyButton
            busy={starting}
            busyLabel="Starting…"
            onClick={() => void begin()}
          >
            Resume checking
          </BusyButton>
        </>
      ) : (
        <>
          <p className="run-status__title" role="status">
            Finished: {vehicles(plan.total)} checked.
            {notChecked.length > 0 &&
              ` ${vehicles(notChecked.length)} could not be checked.`}
          </p>
          {notChecked.length > 0 && (
            <BusyButton
              busy={starting}
              busyLabel="Starting…"
              onClick={() => void begin(notChecked)}
            >
              {`Retry the ${vehicles(notChecked.length)} not checked`}
            </BusyButton>
          )}
        </>
      )}
      {problem && (
        <p className="error-message" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
