// The worker's side of an export, driven message by message as the page drives it.
import Papa from "papaparse";
import readXlsxFile from "read-excel-file/node";
import { describe, expect, it } from "vitest";
import { exportHeader, exportRows } from "./export-table.ts";
import { RESULTS, ROWS, RUN, TODAY } from "./export-test-run.ts";
import { lapsedVan, unknownCar } from "../../testing/watched-fixtures.ts";
import { watchedEntries } from "../watched-view.ts";
import { exportJob } from "./export-job.ts";
import type { ExportRequest, ExportResponse } from "./export-protocol.ts";

const INFO = {
  ...RUN,
  name: "fleet.xlsx",
  createdAt: "2026-11-23T09:00:00.000Z",
  listRows: ROWS.length,
};

/** Feeds a job the messages the page would send, two chunks of rows; returns what it answered. */
function drive(format: "csv" | "xlsx"): Promise<ExportResponse[]> {
  const answers: ExportResponse[] = [];
  return new Promise((resolve) => {
    const handle = exportJob((response) => {
      answers.push(response);
      if (response.kind !== "progress") resolve(answers);
    });
    const chunk = (rows: typeof ROWS): ExportRequest => ({
      kind: "rows",
      rows,
      results: rows.flatMap((row) => {
        const result = row.registration && RESULTS.get(row.registration);
        return result ? [[row.registration ?? "", result] as const] : [];
      }),
    });
    handle({
      kind: "start",
      format,
      run: INFO,
      today: TODAY,
      total: ROWS.length,
    });
    handle(chunk(ROWS.slice(0, 5)));
    handle(chunk(ROWS.slice(5)));
    handle({ kind: "end" });
  });
}

describe("exportJob", () => {
  it("answers a CSV export with rising progress, then the file of every row", async () => {
    const answers = await drive("csv");
    const done = answers.at(-1);
    expect(done?.kind).toBe("done");
    const percents = answers.flatMap((answer) =>
      answer.kind === "progress" ? [answer.percent] : [],
    );
    expect(percents.length).toBeGreaterThan(1);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.every((percent) => percent >= 0 && percent < 100)).toBe(
      true,
    );
    const text = done?.kind === "done" ? await done.file.text() : "";
    const back = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
      skipEmptyLines: true,
    }).data;
    expect(back).toEqual(
      [exportHeader(RUN, TODAY), ...exportRows(ROWS, RESULTS, RUN, TODAY)].map(
        (row) =>
          row.map((cell) =>
            /^(?!-\d+$)[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell,
          ),
      ),
    );
  });

  it("answers an Excel export with an .xlsx file: the results, then the summary", async () => {
    const done = (await drive("xlsx")).at(-1);
    if (done?.kind !== "done") throw new Error("No file");
    expect(done.file.type).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const sheets = await readXlsxFile(
      Buffer.from(await done.file.arrayBuffer()),
    );
    expect(sheets.map((sheet) => sheet.sheet)).toEqual([
      "Fleet check",
      "Summary",
    ]);
    expect(sheets[0]?.data).toHaveLength(ROWS.length + 1);
    expect(sheets[1]?.data).toContainEqual(["List", "fleet.xlsx"]);
  });

  it("fails, rather than writes a wrong file, when rows come before the start", () => {
    const answers: ExportResponse[] = [];
    const handle = exportJob((response) => answers.push(response));
    handle({ kind: "rows", rows: ROWS, results: [] });
    expect(answers).toEqual([{ kind: "failed" }]);
  });

  it("fails when the end comes with rows missing", () => {
    const answers: ExportResponse[] = [];
    const handle = exportJob((response) => answers.push(response));
    handle({
      kind: "start",
      format: "csv",
      run: INFO,
      today: TODAY,
      total: 99,
    });
    handle({ kind: "end" });
    expect(answers.at(-1)).toEqual({ kind: "failed" });
  });

  it("builds a saved fleet's file from the vehicles it is sent, in their order", async () => {
    const entries = watchedEntries([lapsedVan, unknownCar]);
    const answers: ExportResponse[] = [];
    const done = new Promise<ExportResponse>((resolve) => {
      const handle = exportJob((response) => {
        answers.push(response);
        if (response.kind !== "progress") resolve(response);
      });
      handle({
        kind: "start-watched",
        format: "csv",
        fleet: { name: "Vans", columns: ["Driver"] },
        total: 2,
      });
      handle({ kind: "entries", entries: entries.slice(0, 1) });
      handle({ kind: "entries", entries: entries.slice(1) });
      handle({ kind: "end" });
    });
    const answer = await done;
    if (answer.kind !== "done") throw new Error("No file");
    const back = Papa.parse<string[]>(
      (await answer.file.text()).replace(/^\uFEFF/, ""),
      { skipEmptyLines: true },
    ).data;
    expect(back.map((row) => row.slice(0, 2))).toEqual([
      ["Registration", "Driver"],
      ["LP08 SED", "Lee"],
      ["ER19 ERR", expect.any(String)],
    ]);
    expect(answers.filter((a) => a.kind === "progress").length).toBeGreaterThan(
      1,
    );
  });

  it("fails when a saved fleet's vehicles come after a results start, or rows after a fleet's", () => {
    const answers: ExportResponse[] = [];
    const handle = exportJob((response) => answers.push(response));
    handle({
      kind: "start",
      format: "csv",
      run: INFO,
      today: TODAY,
      total: 1,
    });
    handle({ kind: "entries", entries: [] });
    expect(answers.at(-1)).toEqual({ kind: "failed" });

    const other: ExportResponse[] = [];
    const watched = exportJob((response) => other.push(response));
    watched({
      kind: "start-watched",
      format: "csv",
      fleet: { name: "Vans", columns: [] },
      total: 1,
    });
    watched({ kind: "rows", rows: ROWS, results: [] });
    expect(other.at(-1)).toEqual({ kind: "failed" });
  });
});
