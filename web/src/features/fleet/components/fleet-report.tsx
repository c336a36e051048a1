// The printable fleet report, for a manager's file or an auditor: the list's name, who ran it,
// when, and when it was printed, the counts, then the vehicles that need action. Shown only in print (print.css);
// ExportControls puts it on the page when the user asks to print it.
import { Fragment, useMemo } from "react";
import { PrintedBy } from "../../../components/printed-by.tsx";
import {
  exportSummary,
  type SummaryLine,
} from "../lib/export/export-summary.ts";
import { reportColumns, reportRows } from "../lib/export/report-rows.ts";
import type { SavedRun, VehicleResult } from "../lib/fleet-types.ts";
import { rowNumber } from "../lib/row-words.ts";

interface FleetReportProps {
  run: SavedRun;
  results: ReadonlyMap<string, VehicleResult>;
  today: string;
}

const count = (value: string | number) =>
  typeof value === "number" ? value.toLocaleString("en-GB") : value;

function groups(lines: readonly SummaryLine[]): [string, SummaryLine[]][] {
  const byGroup = new Map<string, SummaryLine[]>();
  for (const line of lines) {
    if (line.group === "About") continue;
    byGroup.set(line.group, [...(byGroup.get(line.group) ?? []), line]);
  }
  return [...byGroup];
}

export function FleetReport({ run, results, today }: FleetReportProps) {
  const summary = useMemo(
    () =>
      exportSummary(
        run.rows,
        results,
        { ...run, listRows: run.rows.length },
        today,
      ),
    [run, results, today],
  );
  const rows = useMemo(
    () => reportRows(run.rows, results, today),
    [run.rows, results, today],
  );
  const userColumns = reportColumns(run);

  return (
    <article className="fleet-report">
      <h1 className="heading-l">Fleet check report: {run.name}</h1>
      <PrintedBy checkedAt={run.createdAt} />
      <section className="fleet-report__summary">
        {groups(summary).map(([group, lines]) => (
          <Fragment key={group}>
            <h2 className="heading-s">{group}</h2>
            <dl className="fleet-report__counts">
              {lines.map((line) => (
                <div key={line.label} className="fleet-report__count">
                  <dt>{line.label}</dt>
                  <dd>{count(line.value)}</dd>
                </div>
              ))}
            </dl>
          </Fragment>
        ))}
      </section>
      {rows.length > 0 ? (
        <table className="fleet-report__table">
          <caption className="heading-m">Vehicles that need action</caption>
          <thead>
            <tr>
              <th scope="col">Outcome</th>
              <th scope="col">Registration</th>
              <th scope="col">Row</th>
              {userColumns.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.position}>
                <td>{row.outcome}</td>
                <td>{row.registration}</td>
                <td>{rowNumber(row.line)}</td>
                {userColumns.map((name, index) => (
                  <td key={name}>{row.user[index] ?? ""}</td>
                ))}
                <td>{row.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No vehicle needs action.</p>
      )}
    </article>
  );
}
