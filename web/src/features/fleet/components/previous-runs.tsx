// The fleet checks saved in this browser, newest first: open one, resume one that did not
// finish (after a reload, a closed tab or a crash), or delete one.
import { useEffect, useState, useSyncExternalStore } from "react";
import { Link, useNavigate } from "react-router";
import { formatDateTime } from "../../../lib/dates.ts";
import { useFleetServices } from "../lib/fleet-services.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import {
  dropSession,
  isLive,
  sessionFor,
  sessionsVersion,
  startSession,
  subscribeSessions,
} from "../lib/run-registry.ts";
import type { RunListing } from "../lib/store/run-store.ts";
import { useRunStore } from "../lib/use-run-store.ts";
import { useRunsElsewhere } from "../lib/use-runs-elsewhere.ts";
import { BusyButton } from "../../../components/busy-button.tsx";
import { count } from "../../../lib/count.ts";

function statusWords(
  run: RunListing,
  liveHere: boolean,
  elsewhere: boolean,
): string {
  if (liveHere) return run.status === "paused" ? "Paused" : "Checking now";
  if (elsewhere) return "Checking in another tab";
  switch (run.status) {
    case "finished":
      return "Finished";
    case "cancelled":
      // The user's "Stop checking": nothing is lost, and Resume checks only what is left.
      return "Stopped: can be resumed";
    default:
      return "Did not finish";
  }
}

export function PreviousRuns() {
  const storeState = useRunStore();
  const services = useFleetServices();
  const navigate = useNavigate();
  const [runs, setRuns] = useState<RunListing[]>();
  const [confirming, setConfirming] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [resuming, setResuming] = useState<string>();
  const elsewhere = useRunsElsewhere();
  // Read again whenever a session starts or ends here, so statuses stay true.
  const sessions = useSyncExternalStore(subscribeSessions, sessionsVersion);

  const store = storeState.status === "open" ? storeState.store : undefined;
  useEffect(() => {
    if (!store) return;
    let live = true;
    void store.listRuns().then((listed) => live && setRuns(listed));
    return () => {
      live = false;
    };
  }, [store, sessions]);

  if (storeState.status !== "open" || !runs) return null;

  async function remove(runId: string) {
    dropSession(runId);
    await store?.deleteRun(runId);
    setConfirming(undefined);
    setRuns((current) => current?.filter((run) => run.id !== runId));
  }

  async function resume(runId: string) {
    if (resuming) return;
    setResuming(runId);
    setProblem(undefined);
    try {
      await startSession(services, runId);
      void navigate(fleetPaths.run(runId));
    } catch (error) {
      setProblem(
        `The check could not be resumed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      setResuming(undefined);
    }
  }

  const unfinished = runs.filter(
    (run) =>
      (run.status === "running" || run.status === "paused") &&
      !isLive(sessionFor(run.id)) &&
      !elsewhere.has(run.id),
  );

  return (
    <section className="previous-runs" aria-labelledby="previous-runs-heading">
      {storeState.warning && (
        <p className="inset-warning" role="note">
          {storeState.warning}
        </p>
      )}
      {unfinished.map((run) => (
        <div
          key={run.id}
          className="notification"
          role="region"
          aria-label="Unfinished check"
        >
          <p className="notification__title">A fleet check did not finish</p>
          <p>
            {run.name}, started {formatDateTime(run.createdAt)}:{" "}
            {count(run.answered)} {run.answered === 1 ? "vehicle" : "vehicles"}{" "}
            checked so far. Nothing already checked is lost or checked again.
          </p>
          <BusyButton
            busy={resuming === run.id}
            busyLabel="Starting…"
            onClick={() => void resume(run.id)}
          >
            {`Resume checking ${run.name}`}
          </BusyButton>
        </div>
      ))}
      {problem && (
        <p className="error-message" role="alert">
          {problem}
        </p>
      )}
      <h2 id="previous-runs-heading" className="heading-m">
        Previous fleet checks
      </h2>
      {runs.length === 0 ? (
        <p>Fleet checks you make are kept in this browser and listed here.</p>
      ) : (
        <table className="previous-runs__table">
          <caption className="visually-hidden">
            Fleet checks kept in this browser, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">List</th>
              <th scope="col">Started</th>
              <th scope="col">Rows</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id}>
                <th scope="row">
                  <Link to={fleetPaths.run(run.id)}>{run.name}</Link>
                  {run.checkCompliance && (
                    <span className="hint"> (with compliance)</span>
                  )}
                </th>
                <td data-label="Started">{formatDateTime(run.createdAt)}</td>
                <td data-label="Rows">{count(run.rows)}</td>
                <td data-label="Status">
                  {statusWords(
                    run,
                    isLive(sessionFor(run.id)),
                    elsewhere.has(run.id),
                  )}
                </td>
                <td>
                  {confirming === run.id ? (
                    <span className="previous-runs__confirm">
                      Delete it and its results?{" "}
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => void remove(run.id)}
                      >
                        Yes, delete
                        <span className="visually-hidden"> {run.name}</span>
                      </button>{" "}
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => setConfirming(undefined)}
                      >
                        Keep it
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setConfirming(run.id)}
                    >
                      Delete<span className="visually-hidden"> {run.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
