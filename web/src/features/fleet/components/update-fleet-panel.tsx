// On a saved fleet's page: update it from a new file. The file is read as the fleet check reads
// one (its registration column found, title and totals rows left out); the difference is shown
// first (added, removed, changed, left out), and applied only to the fleet as it was then. What
// happened is said in live regions that are on the page before it is.
import { useId, useState, type ChangeEvent } from "react";
import {
  formatRegistration,
  isApiError,
  type FleetDifference,
} from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import {
  fleetDifference,
  useApplyFleetListMutation,
  type FleetListBody,
} from "../api/saved-fleets-api.ts";
import { fleetList } from "../lib/fleet-from-run.ts";
import { useFleetServices } from "../lib/fleet-services.ts";
import { draftFor } from "../lib/list-draft.ts";
import { FleetParseError, readList } from "../lib/parse/parse-client.ts";
import { LiveMessage } from "../../../components/live-message.tsx";

interface Pending {
  fileName: string;
  list: FleetListBody;
  difference: FleetDifference;
  /** Rows with no valid registration, or excluded: not in the fleet. */
  leftOut: number;
}

const few = (registrations: readonly string[]) => {
  const shown = registrations.slice(0, 10).map(formatRegistration).join(", ");
  return registrations.length <= 10
    ? shown
    : `${shown} and ${(registrations.length - 10).toLocaleString("en-GB")} more`;
};

export function UpdateFleetPanel({ fleetId }: { fleetId: string }) {
  const { parseWorker } = useFleetServices();
  const inputId = useId();
  // Reading the file and asking what it would change: no write, so no mutation.
  const [reading, setReading] = useState(false);
  const [pending, setPending] = useState<Pending>();
  const [note, setNote] = useState<{ error?: string; done?: string }>({});
  const update = useApplyFleetListMutation(fleetId, {
    onSuccess: (done) => {
      setPending(undefined);
      setNote({
        done: `Updated: ${done.added.length.toLocaleString("en-GB")} added, ${done.removed.length.toLocaleString("en-GB")} removed, ${done.changed.length.toLocaleString("en-GB")} changed.`,
      });
    },
    onError: (error) =>
      setNote({
        error: isApiError(error)
          ? error.detail
          : "VICS could not update the fleet. Try again.",
      }),
  });
  const busy = reading || update.isPending;

  async function chosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setReading(true);
    setNote({});
    setPending(undefined);
    try {
      const table = await readList(
        { kind: "file", file },
        undefined,
        parseWorker,
      );
      const draft = draftFor(table);
      const list = fleetList(draft.rows, draft.extraColumns);
      if (list.vehicles.length === 0) {
        setNote({ error: `${file.name} has no valid registrations.` });
        return;
      }
      const difference = await fleetDifference(fleetId, list);
      // Each row beyond one per vehicle: invalid, excluded, or repeating one.
      const leftOut = draft.rows.length - list.vehicles.length;
      setPending({ fileName: file.name, list, difference, leftOut });
    } catch (error) {
      setNote({
        error:
          error instanceof FleetParseError
            ? error.message
            : isApiError(error)
              ? error.detail
              : "VICS could not read the file. Try again.",
      });
    } finally {
      setReading(false);
    }
  }

  function apply() {
    if (!pending) return;
    update.mutate({ list: pending.list, version: pending.difference.version });
  }

  const difference = pending?.difference;
  return (
    <section aria-labelledby={`${inputId}-heading`} className="save-fleet">
      <h2 id={`${inputId}-heading`} className="heading-m">
        Update from a file
      </h2>
      <div className="form-group">
        <label className="label" htmlFor={inputId}>
          A new list of this fleet (CSV, TSV, TXT or XLSX)
        </label>
        <p className="hint" id={`${inputId}-hint`}>
          You see what would change before anything does.
        </p>
        <input
          id={inputId}
          type="file"
          accept=".csv,.tsv,.txt,.xlsx"
          aria-describedby={`${inputId}-hint`}
          disabled={busy}
          onChange={(event) => void chosen(event)}
        />
      </div>
      <LiveMessage alert className="error-message">
        {note.error}
      </LiveMessage>
      <LiveMessage>{note.done}</LiveMessage>
      {pending && difference && (
        <div role="region" aria-label="What the file would change">
          <p>From {pending.fileName}:</p>
          <ul className="saved-fleets__list">
            <li>
              {difference.added.length.toLocaleString("en-GB")} added
              {difference.added.length > 0 && `: ${few(difference.added)}`}
            </li>
            <li>
              {difference.removed.length.toLocaleString("en-GB")} removed
              {difference.removed.length > 0 &&
                `: ${few(difference.removed)} (out of this fleet; re-checks and alerts stop once a vehicle is in no fleet)`}
            </li>
            <li>
              {difference.changed.length.toLocaleString("en-GB")} with new
              details
              {difference.changed.length > 0 && `: ${few(difference.changed)}`}
            </li>
            <li>{difference.unchanged.toLocaleString("en-GB")} unchanged</li>
            {pending.leftOut > 0 && (
              <li>
                {pending.leftOut.toLocaleString("en-GB")} rows left out (no
                valid registration, or repeating a vehicle)
              </li>
            )}
          </ul>
          <BusyButton busy={busy} busyLabel="Updating…" onClick={apply}>
            Apply these changes
          </BusyButton>{" "}
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setPending(undefined)}
          >
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}
