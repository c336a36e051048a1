// One row of the results table, and the table's columns: the user's row number, the vehicle with
// links to its own checks, the outcome in words, the policy, the vehicle, and the user's columns.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatRegistration } from "@vics/shared";
import { appPaths } from "../../../lib/app-paths.ts";
import { formatDate } from "../../../lib/dates.ts";
import type { ResultRow, SortColumn } from "../lib/results-view.ts";
import { OUTCOME_LABELS } from "../lib/row-outcome.ts";
import { complianceWords, outcomeDetail } from "../lib/result-words.ts";

export interface ResultColumn {
  key: string;
  label: string;
  sort?: SortColumn;
  className?: string;
  cell: (entry: ResultRow) => ReactNode;
}

function vehicleOf(entry: ResultRow) {
  const insurance = entry.result?.insurance;
  return insurance && "vehicle" in insurance ? insurance.vehicle : undefined;
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
      cell: (entry) => entry.row.line,
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
        </>
      ),
    },
  ];
  if (checkCompliance)
    columns.push({
      key: "compliance",
      label: "Compliance",
      cell: (entry) =>
        entry.row.registration && entry.compliant !== undefined ? (
          <Link to={appPaths.compliance(entry.row.registration)}>
            {complianceWords(entry)}
          </Link>
        ) : (
          complianceWords(entry)
        ),
    });
  // The user's own columns (fleet number, driver, depot) next: they say which vehicle it is.
  columns.push(
    ...extraColumns.map((label, index): ResultColumn => ({
      key: `extra-${index}`,
      label,
      sort: { extra: index },
      cell: (entry) => entry.row.extra[index],
    })),
  );
  columns.push(
    {
      key: "insurer",
      label: "Insurer",
      sort: "insurer",
      cell: (entry) => policyOf(entry)?.insurer,
    },
    {
      key: "validTo",
      label: "Cover ends",
      sort: "validTo",
      cell: (entry) => {
        const policy = policyOf(entry);
        return policy && formatDate(policy.validTo);
      },
    },
    {
      key: "vehicle",
      label: "Vehicle",
      sort: "make",
      cell: (entry) => {
        const vehicle = vehicleOf(entry);
        return vehicle && `${vehicle.make} ${vehicle.model}`;
      },
    },
  );
  return columns;
}

interface ResultLineProps {
  entry: ResultRow;
  columns: ResultColumn[];
  rowIndex: number;
  height: number;
}

export function ResultLine({
  entry,
  columns,
  rowIndex,
  height,
}: ResultLineProps) {
  return (
    <tr aria-rowindex={rowIndex} style={{ height }}>
      {columns.map((column) =>
        column.key === "line" ? (
          <th key={column.key} scope="row" className={column.className}>
            {column.cell(entry)}
          </th>
        ) : (
          <td key={column.key} className={column.className}>
            {column.cell(entry)}
          </td>
        ),
      )}
    </tr>
  );
}
