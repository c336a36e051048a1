// What `npm run pages` reads from a Lighthouse report, and the table it prints: per page the
// layout shift, the JavaScript a first load fetched but did not run, the bytes it transferred
// and the accessibility score.

/** The parts of a Lighthouse result (LH.Result) this reads. */
export interface LighthouseReport {
  audits: Record<
    string,
    | {
        numericValue?: number;
        details?: { overallSavingsBytes?: number };
      }
    | undefined
  >;
  categories: Record<string, { score: number | null } | undefined>;
  runtimeError?: { code: string; message: string };
}

export interface PageFigures {
  page: string;
  path: string;
  cls: number | null;
  unusedJsKiB: number | null;
  transferKiB: number | null;
  /** 0-100, as Lighthouse shows it. */
  accessibility: number | null;
  performance: number | null;
}

const kib = (bytes: number | undefined) =>
  typeof bytes === "number" ? Math.round((bytes / 1024) * 10) / 10 : null;

const score = (value: number | null | undefined) =>
  typeof value === "number" ? Math.round(value * 100) : null;

/** One page's figures from its Lighthouse report. */
export function pageFigures(
  page: string,
  path: string,
  report: LighthouseReport,
): PageFigures {
  const cls = report.audits["cumulative-layout-shift"]?.numericValue;
  return {
    page,
    path,
    cls: typeof cls === "number" ? Math.round(cls * 1000) / 1000 : null,
    unusedJsKiB: kib(
      // No savings at all: Lighthouse leaves the details out (0 KiB unused).
      report.audits["unused-javascript"]?.details?.overallSavingsBytes ?? 0,
    ),
    transferKiB: kib(report.audits["total-byte-weight"]?.numericValue),
    accessibility: score(report.categories["accessibility"]?.score),
    performance: score(report.categories["performance"]?.score),
  };
}

const COLUMNS: [string, (row: PageFigures) => string][] = [
  ["Page", (row) => `${row.page} (${row.path})`],
  ["CLS", (row) => (row.cls === null ? "-" : row.cls.toFixed(3))],
  ["Unused JS KiB", (row) => (row.unusedJsKiB ?? "-").toString()],
  ["Transfer KiB", (row) => (row.transferKiB ?? "-").toString()],
  ["Accessibility", (row) => (row.accessibility ?? "-").toString()],
  ["Performance", (row) => (row.performance ?? "-").toString()],
];

/** A plain-text table, a line per page, columns padded to line up. */
export function figuresTable(rows: PageFigures[]): string {
  const cells = [
    COLUMNS.map(([title]) => title),
    ...rows.map((row) => COLUMNS.map(([, cell]) => cell(row))),
  ];
  const widths = COLUMNS.map((_, column) =>
    Math.max(...cells.map((line) => line[column]!.length)),
  );
  return cells
    .map((line) =>
      line
        .map((cell, column) =>
          column === 0
            ? cell.padEnd(widths[column]!)
            : cell.padStart(widths[column]!),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** Pages whose layout shift is at or over the target (CLS < 0.1, Lighthouse's "good"). */
export const CLS_TARGET = 0.1;

export function pagesOverTarget(rows: PageFigures[]): PageFigures[] {
  return rows.filter((row) => row.cls === null || row.cls >= CLS_TARGET);
}
