// The fleet check at "/fleet": a list in (pasted or uploaded), checked over, then sent as a run
// saved in this browser; with the runs that did not finish, and the previous ones.
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { useFleetServices } from "../lib/fleet-services.ts";
import { draftFor, draftWithColumn } from "../lib/list-draft.ts";
import { useKeptDraft } from "../lib/use-kept-draft.ts";
import { newRun } from "../lib/new-run.ts";
import { startSession } from "../lib/run-registry.ts";
import { PASTE_SOURCE } from "../lib/parse/parse-paste.ts";
import { clearPastedText, offerPastedText } from "../lib/use-pasted-text.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { ListInput } from "./list-input.tsx";
import { ListReview } from "./list-review.tsx";
import { PreviousRuns } from "./previous-runs.tsx";
import "../fleet-input.css";
import "../fleet-results.css";
import "../fleet-runs.css";
import "../saved-fleets.css";

export function FleetPage() {
  const services = useFleetServices();
  const navigate = useNavigate();
  const { draft, loading, restored, setDraft } = useKeptDraft();
  const heading = useRef<HTMLHeadingElement>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string>();

  async function start(checkCompliance: boolean) {
    if (!draft || starting) return;
    setStarting(true);
    setStartError(undefined);
    try {
      const run = newRun(draft, checkCompliance);
      const { store } = await services.openStore();
      await store.saveRun(run);
      await startSession(services, run.id);
      clearPastedText();
      setDraft(undefined);
      void navigate(fleetPaths.run(run.id));
    } catch (error) {
      setStartError(
        `The check could not be started: ${error instanceof Error ? error.message : String(error)}. Try again.`,
      );
      setStarting(false);
    }
  }

  return (
    <div className="fleet-page">
      <div className="column-two-thirds">
        <h1 ref={heading} tabIndex={-1} className="heading-l">
          Fleet check
        </h1>
        <p className="lead">
          Check a whole fleet at once: paste registrations or upload a
          spreadsheet, and see which vehicles are not insured, about to lapse,
          or not compliant.
        </p>
        {draft && restored && (
          <p className="inset-note" role="note">
            Your list is as you left it: {draft.table.source}, with your fixes.
          </p>
        )}
        {loading ? (
          <>
            <DocumentTitle title="Fleet check" />
            <LoadingMessage>
              Looking for the list you were working on…
            </LoadingMessage>
          </>
        ) : draft ? (
          <ListReview
            draft={draft}
            onColumn={(column) => setDraft(draftWithColumn(draft, column))}
            onRows={(rows) => setDraft({ ...draft, rows })}
            onBack={() => {
              // One registration a line: the rows as pasted, in order (a list kept from
              // another visit has no text in this tab).
              if (draft.table.source === PASTE_SOURCE)
                offerPastedText(
                  draft.table.rows.map((row) => row.cells[0] ?? "").join("\n"),
                );
              setDraft(undefined);
              heading.current?.focus();
            }}
            onStart={(checkCompliance) => void start(checkCompliance)}
            starting={starting}
            startError={startError}
          />
        ) : (
          <ListInput onRead={(table) => setDraft(draftFor(table))} />
        )}
      </div>
      <PreviousRuns />
    </div>
  );
}
