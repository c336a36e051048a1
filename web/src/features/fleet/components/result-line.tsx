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
      className: "results-table__number",
      cell: (entry) => entry.row.line,
    },
    {
      key: "registration",
      label: "Registration",
      sort: "registration",
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
    ...extraColumns.map((label, index): ResultColumn => ({
      key: `extra-${index}`,
      label,
      sort: { extra: index },
      cell: (entry) => entry.row.extra[index],
    })),
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
