// The second step: which column holds the registrations, what will be checked (rows, unique
// vehicles, duplicates), the invalid rows to fix or exclude, and "Also check compliance"; or,
// for the fleet role, saving the list as a watched fleet without checking it.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { SummaryList } from "../../../components/summary-list.tsx";
import { PageErrorContext } from "../../../lib/use-document-title.ts";
import type { FleetRow } from "../lib/fleet-types.ts";
import { inputSummary } from "../lib/parse/prepare-rows.ts";
import type { ListDraft } from "../lib/list-draft.ts";
import { ColumnChoice } from "./column-choice.tsx";
import { AddedRows } from "./added-rows.tsx";
import { InvalidRows } from "./invalid-rows.tsx";
import { LeftOutRows } from "./left-out-rows.tsx";
import { RepeatedVehicles } from "./repeated-vehicles.tsx";
import { InputNotes } from "./input-notes.tsx";
import { SaveListFleet } from "./save-list-fleet.tsx";
import { rowName } from "../lib/row-words.ts";
import { count } from "../../../lib/count.ts";

interface ListReviewProps {
  draft: ListDraft;
  onColumn: (column: number) => void;
  onRows: (rows: FleetRow[]) => void;
  onBack: () => void;
  onStart: (checkCompliance: boolean) => void;
  starting: boolean;
  /** Why the run could not be started (e.g. the browser cannot save it). */
  startError?: string;
}

const plural = (value: number, one: string, many: string) =>
  `${count(value)} ${value === 1 ? one : many}`;

export function ListReview({
  draft,
  onColumn,
  onRows,
  onBack,
  onStart,
  starting,
  startError,
}: ListReviewProps) {
  const id = useId();
  const columnId = `${id}-column`;
  const startId = `${id}-start`;
  const [checkCompliance, setCheckCompliance] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const summary = useMemo(() => inputSummary(draft.rows), [draft.rows]);
  const nothingToCheck = summary.toCheck.length === 0;
  const [tried, setTried] = useState(false);
  // A new step of the page: keyboard and screen-reader users start at its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const errors = [
    ...(tried && nothingToCheck
      ? [
          {
            fieldId: draft.table.columnCount > 1 ? columnId : startId,
            message:
              draft.table.columnCount > 1
                ? "There are no valid registrations in this column. Choose the column that holds the registrations."
                : "There are no valid registrations to check. Fix the rows below, or choose a different list.",
          },
        ]
      : []),
    ...(startError ? [{ fieldId: startId, message: startError }] : []),
  ];

  function start() {
    setTried(true);
    setAttempt((value) => value + 1);
    if (!nothingToCheck) onStart(checkCompliance);
  }

  return (
    <PageErrorContext value={errors.length > 0}>
      <DocumentTitle title="Check your list – Fleet check" />
      {errors.length > 0 && <ErrorSummary errors={errors} attempt={attempt} />}
      <h2 ref={heading} tabIndex={-1} className="heading-m">
        Check your list
      </h2>
      <p>
        {draft.table.source}{" "}
        <button type="button" className="link-button" onClick={onBack}>
          Choose a different list
        </button>
      </p>

      {draft.table.skipped && draft.table.skipped.length > 0 && (
        <div className="inset-note">
          <p>
            {draft.table.skipped.length === 1
              ? "Skipped 1 title row above the header:"
              : `Skipped ${count(draft.table.skipped.length)} title rows above the header:`}
          </p>
          <ul className="skipped-rows">
            {draft.table.skipped.map((row) => (
              <li key={row.line}>
                {rowName(row.line)}: {row.text}
              </li>
            ))}
          </ul>
        </div>
      )}

      {draft.table.columnCount > 1 && (
        <ColumnChoice
          id={columnId}
          table={draft.table}
          column={draft.column}
          onChange={onColumn}
          error={errors.find((error) => error.fieldId === columnId)?.message}
        />
      )}

      <SummaryList
        rows={[
          { label: "Rows", value: count(summary.rows) },
          {
            label: "Vehicles to check",
            value: `${count(summary.unique)} (each checked once)`,
          },
          {
            label: "Rows repeating a vehicle",
            value: `${count(summary.duplicates)}${summary.duplicates > 0 ? " (they get that vehicle’s answer)" : ""}`,
          },
          {
            label: "Rows with an invalid registration",
            value: count(summary.invalid),
          },
          { label: "Rows you excluded", value: count(summary.excluded) },
        ]}
      />

      <InputNotes table={draft.table} />

      <RepeatedVehicles rows={draft.rows} />
      <InvalidRows rows={draft.rows} onRows={onRows} />

      <LeftOutRows rows={draft.rows} onRows={onRows} />

      <AddedRows
        rows={draft.rows}
        extraColumns={draft.extraColumns.length}
        onRows={onRows}
      />

      <div className="checkbox">
        <input
          id={`${id}-compliance`}
          type="checkbox"
          className="checkbox__input"
          checked={checkCompliance}
          onChange={(event) => setCheckCompliance(event.target.checked)}
        />
        <label className="checkbox__label" htmlFor={`${id}-compliance`}>
          Also check compliance
          <span className="hint checkbox__hint">
            MOT, road tax and unpaid fines, as well as insurance
          </span>
        </label>
      </div>

      <button
        id={startId}
        type="button"
        className="button"
        onClick={start}
        aria-disabled={starting || undefined}
      >
        {starting
          ? "Starting…"
          : nothingToCheck
            ? "Check vehicles"
            : `Check ${plural(summary.unique, "vehicle", "vehicles")}`}
      </button>

      <SaveListFleet draft={draft} />
    </PageErrorContext>
  );
}
