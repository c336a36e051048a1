// The results table's columns: the user's row number, the vehicle with links to its own checks,
// the outcome in words, the user's columns, the policy, when cover, MOT and tax fall due, and the
// vehicle. The cards on a narrow screen read the same cells.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatRegistration } from "@vics/shared";
import { appPaths } from "../../../lib/app-paths.ts";
import { formatDate } from "../../../lib/dates.ts";
import { type DueKind, OUTCOME_LABELS } from "@vics/fleet";
import type { ResultRow } from "../lib/results-view.ts";
import type { SortColumn } from "../lib/results-sort.ts";
import {
  complianceWords,
  dueSoonWords,
  outcomeDetail,
  sornWords,
} from "../lib/result-words.ts";
import { NotFoundLookalikes } from "./not-found-lookalikes.tsx";
import { FactSourceNote, liveFact } from "./fact-source-note.tsx";
import { rowNumber } from "../lib/row-words.ts";

export interface ResultColumn {
  key: string;
  label: string;
  sort?: SortColumn;
  className?: string;
  cell: (entry: ResultRow) => ReactNode;
  /** True when the row has nothing in this column: a card leaves it out. */
  blank?: (entry: ResultRow) => boolean;
}

function vehicleOf(entry: ResultRow) {
  const insurance = entry.result?.insurance;
  return insurance && "vehicle" in insurance ? insurance.vehicle : undefined;
}

/** A date that falls due, with a flag in words when it is within 30 days. */
function DueDate({ entry, kind }: { entry: ResultRow; kind: DueKind }) {
  const date = entry.due[kind];
  if (!date) return null;
  const soon = entry.dueSoon.find((due) => due.kind === kind);
  return (
    <>
      {formatDate(date)}
      {soon && (
        <span className="due-flag"> {dueSoonWords(kind, soon.daysLeft)}</span>
      )}
    </>
  );
}

function policyOf(entry: ResultRow) {
  const insurance = entry.result?.insurance;
  return insurance?.status === "insured" ? insurance.policy : undefined;
}

export function resultColumns(
  extraColumns: readonly string[],
  checkCompliance: boolean,
  today: string,
): ResultColumn[] {
  const columns: ResultColumn[] = [
    {
      key: "line",
      label: "Row",
      sort: "line",
      // Row and registration stay in view while the table scrolls sideways.
      className: "results-table__number results-table__pinned-1",
      cell: (entry) => rowNumber(entry.row.line),
    },
    {
      key: "registration",
      label: "Registration",
      sort: "registration",
      className: "results-table__pinned-2",
      cell: ({ row }) =>
        row.registration && !row.excluded ? (
          <Link to={appPaths.insurance(row.registration)}>
            {formatRegistration(row.registration)}
          </Link>
        ) : (
          row.submitted || <span className="hint">(blank)</span>
        ),
    },
    {
      key: "outcome",
      label: "Insurance",
      sort: "action",
      className: "results-table__wrap",
      cell: (entry) => (
        <>
          <span className={`outcome outcome--${entry.outcome}`}>
            {OUTCOME_LABELS[entry.outcome]}
          </span>
          {outcomeDetail(entry, today) && (
            <span className="results-table__detail">
              {" "}
              {outcomeDetail(entry, today)}
            </span>
          )}
          <NotFoundLookalikes entry={entry} />
        </>
      ),
    },
  ];
  if (checkCompliance)
    columns.push({
      key: "compliance",
      label: "Compliance",
      className: "results-table__wrap",
      blank: (entry) => complianceWords(entry) === "",
      cell: (entry) => (
        <>
          {entry.row.registration && entry.compliant !== undefined ? (
            <Link to={appPaths.compliance(entry.row.registration)}>
              {complianceWords(entry)}
            </Link>
          ) : (
            complianceWords(entry)
          )}
          {sornWords(entry) && (
            <span className="results-table__detail">
              {". "}
              {sornWords(entry)}
            </span>
          )}
        </>
      ),
    });
  // The user's own columns (fleet number, driver, depot) next: they say which vehicle it is.
  columns.push(
    ...extraColumns.map((label, index): ResultColumn => ({
      key: `extra-${index}`,
      label,
      sort: { extra: index },
      cell: (entry) => entry.row.extra[index],
      blank: (entry) => !entry.row.extra[index],
    })),
  );
  columns.push(
    {
      key: "insurer",
      label: "Insurer",
      sort: "insurer",
      cell: (entry) => policyOf(entry)?.insurer,
      blank: (entry) => !policyOf(entry),
    },
    {
      key: "validTo",
      label: "Cover ends",
      sort: "validTo",
      cell: (entry) => <DueDate entry={entry} kind="insurance" />,
      blank: (entry) => !entry.due.insurance,
    },
  );
  if (checkCompliance)
    columns.push(
      {
        key: "motDue",
        label: "MOT due",
        sort: "motDue",
        cell: (entry) => (
          <>
            <DueDate entry={entry} kind="mot" />
            <FactSourceNote entry={entry} component="mot" today={today} />
          </>
        ),
        blank: (entry) => !entry.due.mot && !liveFact(entry, "mot"),
      },
      {
        key: "taxDue",
        label: "Tax due",
        sort: "taxDue",
        cell: (entry) => (
          <>
            <DueDate entry={entry} kind="tax" />
            <FactSourceNote entry={entry} component="tax" today={today} />
          </>
        ),
        blank: (entry) => !entry.due.tax && !liveFact(entry, "tax"),
      },
    );
  columns.push({
    key: "vehicle",
    label: "Vehicle",
    sort: "make",
    cell: (entry) => {
      const vehicle = vehicleOf(entry);
      return vehicle && `${vehicle.make} ${vehicle.model}`;
    },
    blank: (entry) => !vehicleOf(entry),
  });
  return columns;
}
