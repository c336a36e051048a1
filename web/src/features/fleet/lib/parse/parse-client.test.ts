import { describe, expect, it, vi } from "vitest";
import { inThreadParseWorker } from "./in-thread-parse-worker.ts";
import {
  FleetParseError,
  readList,
  type ParseWorker,
  type ParseWorkerFactory,
} from "./parse-client.ts";
import type { ParseRequest } from "./run-parse.ts";

/** A worker that takes the request and never answers, recording what happened to it. */
function silentWorker() {
  const seen: {
    request?: ParseRequest;
    transfer?: Transferable[];
    stopped: boolean;
  } = {
    stopped: false,
  };
  let started = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const factory: ParseWorkerFactory = () => ({
    run(request, transfer) {
      seen.request = request;
      seen.transfer = transfer;
      started();
    },
    stop() {
      seen.stopped = true;
    },
  });
  return { factory, seen, running };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("Expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("readList", () => {
  it("reads a paste", async () => {
    const table = await readList(
      { kind: "paste", text: "AB12CDE\nCD34EFG" },
      undefined,
      inThreadParseWorker,
    );
    expect(table.rows.map((row) => row.cells[0])).toEqual([
      "AB12CDE",
      "CD34EFG",
    ]);
  });

  it("reads a file, named by its file name", async () => {
    const file = new File(
      ["\uFEFFRegistration,Depot\r\nAB12CDE,Leeds\r\n"],
      "depot.csv",
      { type: "text/csv" },
    );
    const table = await readList(
      { kind: "file", file },
      undefined,
      inThreadParseWorker,
    );
    expect(table).toEqual({
      source: "depot.csv",
      header: ["Registration", "Depot"],
      rows: [{ line: 2, cells: ["AB12CDE", "Leeds"] }],
      columnCount: 2,
    });
  });

  it("hands the file's bytes to the worker rather than copying them", async () => {
    const { factory, seen, running } = silentWorker();
    const controller = new AbortController();
    const reading = readList(
      { kind: "file", file: new File(["AB12CDE"], "a.csv") },
      controller.signal,
      factory,
    );
    await running;
    expect(seen.request).toMatchObject({ kind: "file", name: "a.csv" });
    const bytes =
      seen.request?.kind === "file" ? seen.request.bytes : undefined;
    expect(seen.transfer).toEqual([bytes]);
    controller.abort();
    await rejection(reading);
  });

  it("rejects with a FleetParseError carrying the failure", async () => {
    const error = await rejection(
      readList(
        { kind: "paste", text: " , ; " },
        undefined,
        inThreadParseWorker,
      ),
    );
    expect(error).toBeInstanceOf(FleetParseError);
    expect(error).toMatchObject({
      name: "FleetParseError",
      message: expect.stringMatching(/no registrations/),
      failure: { code: "no-rows" },
    });
  });

  it.each<[string, ParseWorkerFactory]>([
    [
      "a worker that dies",
      () => ({
        run: (_request, _transfer, _answer, crash) => crash(),
        stop: () => undefined,
      }),
    ],
    [
      "a worker that cannot start",
      () => {
        throw new ReferenceError("Worker is not defined");
      },
    ],
  ])("turns %s into a failure the user can read", async (_name, factory) => {
    const error = await rejection(
      readList({ kind: "paste", text: "AB12CDE" }, undefined, factory),
    );
    expect(error).toBeInstanceOf(FleetParseError);
    expect(error).toMatchObject({
      failure: { code: "corrupt", message: expect.stringMatching(/Try again/) },
    });
  });

  it("uses a module worker by default, and fails clearly where there is none (jsdom)", async () => {
    const file = new File(["AB12CDE"], "a.csv");
    const error = await rejection(readList({ kind: "file", file }));
    expect(error).toMatchObject({
      failure: {
        code: "corrupt",
        message: expect.stringMatching(/save it again/),
      },
    });
  });

  it("ends the worker and rejects with the signal's reason when aborted", async () => {
    const { factory, seen, running } = silentWorker();
    const controller = new AbortController();
    const reading = readList(
      { kind: "paste", text: "AB12CDE" },
      controller.signal,
      factory,
    );
    await running;
    expect(seen.stopped).toBe(false);
    controller.abort();
    expect(await rejection(reading)).toMatchObject({ name: "AbortError" });
    expect(seen.stopped).toBe(true);
  });

  it("starts nothing when the signal is already aborted", async () => {
    const create = vi.fn<ParseWorkerFactory>(
      () => ({ run: () => undefined, stop: () => undefined }) as ParseWorker,
    );
    const error = await rejection(
      readList({ kind: "paste", text: "AB12CDE" }, AbortSignal.abort(), create),
    );
    expect(error).toMatchObject({ name: "AbortError" });
    expect(create).not.toHaveBeenCalled();
  });

  it("refuses a file over the size limit without reading it", async () => {
    const file = new File(["AB12CDE"], "huge.csv");
    Object.defineProperty(file, "size", { value: 300 * 1024 * 1024 });
    const read = vi.spyOn(file, "arrayBuffer");
    const error = await rejection(
      readList({ kind: "file", file }, undefined, inThreadParseWorker),
    );
    expect(error).toMatchObject({
      failure: {
        code: "too-many-rows",
        message: expect.stringMatching(/300 MB/),
      },
    });
    expect(read).not.toHaveBeenCalled();
  });

  it("stops the worker once it has answered", async () => {
    const stop = vi.fn();
    const factory: ParseWorkerFactory = () => {
      const inner = inThreadParseWorker();
      return { run: inner.run, stop: () => (stop(), inner.stop()) };
    };
    await readList({ kind: "paste", text: "AB12CDE" }, undefined, factory);
    expect(stop).toHaveBeenCalledTimes(1);
  });
});
