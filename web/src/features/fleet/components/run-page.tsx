// A fleet check at "/fleet/runs/:runId": where it stands (running, waiting, paused, stopped or
// finished, with what to do next), the summary, the results and their download.
import { useEffect, useRef } from "react";
import { Link, useParams } from "react-router";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { useRun } from "../lib/use-run.ts";
import { ResultsSection } from "./results-section.tsx";
import { RunStatusPanel } from "./run-status-panel.tsx";
import { SaveFleetPanel } from "./save-fleet-panel.tsx";
import "../fleet-results.css";
import "../fleet-runs.css";
import "../saved-fleets.css";

export function RunPage() {
  const { runId = "" } = useParams();
  const state = useRun(runId);
  // A new page: start keyboard and screen-reader users at its heading, once it is there.
  const heading = useRef<HTMLHeadingElement>(null);
  const ready = state.status === "ready";
  useEffect(() => {
    if (ready) heading.current?.focus();
  }, [ready, runId]);

  if (state.status === "loading")
    return <LoadingMessage>Opening the fleet check…</LoadingMessage>;
  if (state.status === "unavailable" || state.status === "missing")
    return (
      <div className="column-two-thirds">
        <DocumentTitle title="Fleet check not found" />
        <h1 className="heading-l">Fleet check not found</h1>
        <p>
          {state.status === "missing"
            ? "This fleet check is not kept in this browser. It may have been deleted, or made in another browser."
            : state.message}
        </p>
        <p>
          <Link to={fleetPaths.start()}>Start a fleet check</Link>
        </p>
      </div>
    );

  const { view } = state;
  const { run } = view;
  return (
    <div className="fleet-run">
      <DocumentTitle title={`${run.name} – Fleet check`} />
      <p className="back-link">
        <Link to={fleetPaths.start()}>Fleet check</Link>
      </p>
      <h1 ref={heading} tabIndex={-1} className="heading-l">
        <span className="heading-caption">Fleet check</span> {run.name}
      </h1>
      <p className="fleet-run__meta">
        Started {formatDateTime(run.createdAt)}.{" "}
        {run.checkCompliance
          ? "Insurance and compliance (MOT, road tax, fines)."
          : "Insurance."}
      </p>
      <RunStatusPanel view={view} />
      <ResultsSection view={view} />
      {run.status === "finished" && <SaveFleetPanel list={run} />}
    </div>
  );
}
