import { describe, expect, it } from "vitest";
import {
  ExportFileError,
  makeExportFile,
  type ExportWorkerFactory,
} from "./export-client.ts";
import type { ExportRequest } from "./export-protocol.ts";
import { RESULTS, ROWS, RUN, TODAY } from "./export-test-run.ts";
import { inThreadExportWorker } from "./in-thread-export-worker.ts";

const INPUT = {
  format: "csv" as const,
  run: {
    ...RUN,
    name: "fleet.xlsx",
    createdAt: "2026-11-23T09:00:00.000Z",
    listRows: ROWS.length,
  },
  rows: ROWS,
  results: RESULTS,
  today: TODAY,
};

/** A worker that records what it is sent and answers only when told to. */
function recordingWorker() {
  const sent: ExportRequest[] = [];
  const seen = { stopped: false };
  let crash = () => {};
  const factory: ExportWorkerFactory = (_answer, crashed) => {
    crash = crashed;
    return {
      send: (request) => sent.push(request),
      stop: () => {
        seen.stopped = true;
      },
    };
  };
  return { factory, sent, seen, crash: () => crash() };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("Expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("makeExportFile", () => {
  it("makes the file, reporting progress on the way", async () => {
    const percents: number[] = [];
    const file = await makeExportFile(INPUT, {
      onProgress: (percent) => percents.push(percent),
      createWorker: inThreadExportWorker,
    });
    expect(await file.text()).toContain("AB12 CDE");
    expect(percents.length).toBeGreaterThan(0);
  });

  it("sends the rows in chunks, each with the answers its rows need and no others", async () => {
    const { factory, sent } = recordingWorker();
    void makeExportFile(INPUT, { createWorker: factory, chunkRows: 4 });
    await expect.poll(() => sent.at(-1)?.kind).toBe("end");
    expect(sent.map((request) => request.kind)).toEqual([
      "start",
      "rows",
      "rows",
      "rows",
      "end",
    ]);
    const chunks = sent.flatMap((request) =>
      request.kind === "rows" ? [request] : [],
    );
    expect(chunks.flatMap((chunk) => chunk.rows)).toEqual(ROWS);
    for (const chunk of chunks) {
      const needed = new Set(
        chunk.rows.flatMap((row) =>
          row.registration ? [row.registration] : [],
        ),
      );
      expect(
        chunk.results.every(([registration]) => needed.has(registration)),
      ).toBe(true);
    }
    expect(sent[0]).toMatchObject({
      kind: "start",
      format: "csv",
      total: ROWS.length,
      today: TODAY,
    });
  });

  it("stops the worker and rejects with the abort when the user cancels", async () => {
    const { factory, seen, sent } = recordingWorker();
    const controller = new AbortController();
    const making = makeExportFile(INPUT, {
      createWorker: factory,
      signal: controller.signal,
    });
    await expect.poll(() => sent.length).toBeGreaterThan(0);
    controller.abort();
    const error = await rejection(making);
    expect((error as DOMException).name).toBe("AbortError");
    expect(seen.stopped).toBe(true);
  });

  it("says what to do when the worker dies", async () => {
    const { factory, seen, sent, crash } = recordingWorker();
    const making = makeExportFile(INPUT, { createWorker: factory });
    await expect.poll(() => sent.length).toBeGreaterThan(0);
    crash();
    const error = await rejection(making);
    expect(error).toBeInstanceOf(ExportFileError);
    expect((error as Error).message).toBe(
      "The file could not be made. Try again, or download the other format.",
    );
    expect(seen.stopped).toBe(true);
  });

  it("says the same when no worker can start", async () => {
    const error = await rejection(
      makeExportFile(INPUT, {
        createWorker: () => {
          throw new Error("refused");
        },
      }),
    );
    expect(error).toBeInstanceOf(ExportFileError);
  });
});
