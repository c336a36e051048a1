import { describe, expect, it } from "vitest";
import {
  lapsedVan,
  motExpiredTruck,
  unknownCar,
} from "../../testing/watched-fixtures.ts";
import { watchedEntries } from "../watched-view.ts";
import {
  ExportFileError,
  makeExportFile,
  makeWatchedExportFile,
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

const WATCHED = {
  format: "csv" as const,
  fleet: { name: "Vans", columns: ["Driver"], since: "2026-11-01" },
  entries: watchedEntries([lapsedVan, unknownCar, motExpiredTruck]),
};

describe("makeWatchedExportFile", () => {
  it("makes a saved fleet's file in the worker from its vehicles, reporting progress", async () => {
    const percents: number[] = [];
    const file = await makeWatchedExportFile(WATCHED, {
      onProgress: (percent) => percents.push(percent),
      createWorker: inThreadExportWorker,
    });
    const text = await file.text();
    expect(text).toContain("Changes since 2026-11-01");
    expect(text).toContain("LP08 SED");
    expect(text).toContain("MT15 EXP");
    expect(percents.length).toBeGreaterThan(1);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  });

  it("sends the vehicles in chunks after the fleet's description, the table left to the worker", async () => {
    const { factory, sent } = recordingWorker();
    void makeWatchedExportFile(WATCHED, {
      createWorker: factory,
      chunkRows: 2,
    });
    await expect.poll(() => sent.at(-1)?.kind).toBe("end");
    expect(sent.map((request) => request.kind)).toEqual([
      "start-watched",
      "entries",
      "entries",
      "end",
    ]);
    expect(sent[0]).toEqual({
      kind: "start-watched",
      format: "csv",
      fleet: WATCHED.fleet,
      total: 3,
    });
    expect(
      sent.flatMap((request) =>
        request.kind === "entries" ? request.entries : [],
      ),
    ).toEqual(WATCHED.entries);
  });

  it("stops the worker and rejects with the abort when the user cancels", async () => {
    const { factory, seen, sent } = recordingWorker();
    const controller = new AbortController();
    const making = makeWatchedExportFile(WATCHED, {
      createWorker: factory,
      signal: controller.signal,
      chunkRows: 1,
    });
    await expect.poll(() => sent.length).toBeGreaterThan(0);
    controller.abort();
    const error = await rejection(making);
    expect((error as DOMException).name).toBe("AbortError");
    expect(seen.stopped).toBe(true);
    // Nothing more goes to a worker that was stopped.
    const count = sent.length;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toHaveLength(count);
    expect(sent.at(-1)?.kind).not.toBe("end");
  });

  it("says what to do when the worker dies, or cannot start", async () => {
    const { factory, seen, sent, crash } = recordingWorker();
    const making = makeWatchedExportFile(WATCHED, { createWorker: factory });
    await expect.poll(() => sent.length).toBeGreaterThan(0);
    crash();
    const error = await rejection(making);
    expect(error).toBeInstanceOf(ExportFileError);
    expect((error as Error).message).toBe(
      "The file could not be made. Try again, or download the other format.",
    );
    expect(seen.stopped).toBe(true);
    expect(
      await rejection(
        makeWatchedExportFile(WATCHED, {
          createWorker: () => {
            throw new Error("refused");
          },
        }),
      ),
    ).toBeInstanceOf(ExportFileError);
  });

  it("never starts a worker for a download cancelled before it began", async () => {
    const { factory, sent } = recordingWorker();
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      makeWatchedExportFile(WATCHED, {
        createWorker: factory,
        signal: controller.signal,
      }),
    );
    expect((error as DOMException).name).toBe("AbortError");
    expect(sent).toEqual([]);
  });
});
