// The run at a glance: the list in rows, the answers in vehicles, problems first. Each figure
// that stands for rows in the table is a button that shows just those rows.
import type { ComplianceChecks } from "@vics/shared";
import type { OutcomeFilter } from "../lib/results-view.ts";
import type { RunSummary } from "../lib/run-summary.ts";
import { count } from "../../../lib/count.ts";

interface Figure {
  label: string;
  value: number;
  filter?: OutcomeFilter;
  /** A problem to act on: shown in bold when there are any. */
  problem?: boolean;
}

const FAILING: Record<keyof ComplianceChecks, string> = {
  insuranceValid: "Failing insurance",
  motValid: "Failing MOT",
  roadTaxPaid: "Failing road tax",
  noOutstandingFines: "With unpaid fines",
};

function vehicleFigures(summary: RunSummary): Figure[] {
  const { vehicles } = summary;
  const figures: Figure[] = [
    {
      label: "Not insured",
      value: vehicles["not-insured"],
      filter: "not-insured",
      problem: true,
    },
    {
      label: "Insured, cover ends within 30 days",
      value: vehicles.expiring,
      filter: "expiring",
      problem: true,
    },
    {
      label: "Not found",
      value: vehicles["not-found"],
      filter: "not-found",
      problem: true,
    },
    {
      label: "Not checked",
      value: vehicles["not-checked"],
      filter: "not-checked",
      problem: true,
    },
    { label: "Insured", value: vehicles.insured, filter: "insured" },
  ];
  // New vehicles whose insurer has not put the policy on the record yet: only when there are.
  if (vehicles["not-yet-on-record"] > 0)
    figures.splice(2, 0, {
      label: "New, policy not yet on record",
      value: vehicles["not-yet-on-record"],
      filter: "not-yet-on-record",
      problem: true,
    });
  if (vehicles.invalid > 0)
    figures.push({
      label: "Refused by the service as invalid",
      value: vehicles.invalid,
      filter: "invalid",
      problem: true,
    });
  if (vehicles.pending > 0)
    figures.push({
      label: "Not checked yet",
      value: vehicles.pending,
      filter: "pending",
    });
  return figures;
}

function complianceFigures(summary: RunSummary): Figure[] {
  const compliance = summary.compliance;
  if (!compliance) return [];
  return [
    {
      label: "Not compliant",
      value: compliance.notCompliant,
      filter: "not-compliant",
      problem: true,
    },
    {
      label: "Compliance not checked",
      value: compliance.notChecked,
      filter: "not-checked",
      problem: true,
    },
    ...(Object.keys(FAILING) as (keyof ComplianceChecks)[]).map(
      (check): Figure => ({
        label: FAILING[check],
        value: compliance.failing[check],
        filter: `failing-${check}`,
        problem: true,
      }),
    ),
    {
      label: "MOT due within 30 days",
      value: compliance.dueSoon.mot,
      filter: "due-mot",
      problem: true,
    },
    {
      label: "Tax due within 30 days",
      value: compliance.dueSoon.tax,
      filter: "due-tax",
      problem: true,
    },
    { label: "Compliant", value: compliance.compliant },
  ];
}

function FigureList({
  figures,
  onShow,
}: {
  figures: Figure[];
  onShow: (filter: OutcomeFilter) => void;
}) {
  return (
    <dl className="run-figures">
      {figures.map((figure) => (
        <div
          key={figure.label}
          className={`run-figures__item${figure.problem && figure.value > 0 ? " run-figures__item--problem" : ""}`}
        >
          <dt>{figure.label}</dt>
          <dd>
            <span className="run-figures__value">{count(figure.value)}</span>
            {figure.filter && figure.value > 0 && (
              <button
                type="button"
                className="link-button run-figures__show"
                onClick={() => figure.filter && onShow(figure.filter)}
              >
                Show rows
                <span className="visually-hidden">: {figure.label}</span>
              </button>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function RunSummaryView({
  summary,
  onShow,
}: {
  summary: RunSummary;
  onShow: (filter: OutcomeFilter) => void;
}) {
  const list: Figure[] = [
    { label: "Rows in your list", value: summary.rows, filter: "all" },
    { label: "Different vehicles", value: summary.uniqueVehicles },
    { label: "Rows repeating a vehicle", value: summary.duplicateRows },
    {
      label: "Rows with an invalid registration",
      value: summary.invalidRows,
      filter: "invalid",
      problem: true,
    },
    {
      label: "Rows you excluded",
      value: summary.excludedRows,
      filter: "excluded",
    },
  ];
  return (
    <section className="run-summary" aria-labelledby="run-summary-heading">
      <h2 id="run-summary-heading" className="heading-m">
        Summary
      </h2>
      <h3 className="heading-s">Vehicles</h3>
      <p className="hint">
        Each vehicle counts once, however many rows of your list it is on; “Show
        rows” lists all of them.
      </p>
      <FigureList figures={vehicleFigures(summary)} onShow={onShow} />
      {summary.compliance && (
        <>
          <h3 className="heading-s">Compliance</h3>
          <FigureList figures={complianceFigures(summary)} onShow={onShow} />
        </>
      )}
      <h3 className="heading-s">Your list</h3>
      <FigureList figures={list} onShow={onShow} />
    </section>
  );
}
