// The worker entry, run in jsdom: `self` is the window here, so its postMessage is watched.
import { describe, expect, it, vi } from "vitest";
import type { ExportResponse } from "./export-protocol.ts";
import { RUN, TODAY } from "./export-test-run.ts";

describe("export-worker", () => {
  it("answers the page's messages with progress and then the file", async () => {
    const answers: ExportResponse[] = [];
    const finished = new Promise<void>((resolve) => {
      vi.spyOn(window, "postMessage").mockImplementation((message: unknown) => {
        answers.push(message as ExportResponse);
        if ((message as ExportResponse).kind !== "progress") resolve();
      });
    });
    await import("./export-worker.ts");
    const send = (data: unknown) =>
      window.onmessage?.(new MessageEvent("message", { data }));
    send({
      kind: "start",
      format: "csv",
      run: {
        ...RUN,
        extraColumns: [],
        name: "Pasted list",
        createdAt: "2026-11-23T09:00:00Z",
        listRows: 1,
      },
      today: TODAY,
      total: 1,
    });
    send({
      kind: "rows",
      rows: [
        { line: 1, submitted: "AB12CDE", registration: "AB12CDE", extra: [] },
      ],
      results: [],
    });
    send({ kind: "end" });
    await finished;
    const done = answers.at(-1);
    expect(done?.kind).toBe("done");
    expect(done?.kind === "done" && (await done.file.text())).toContain(
      "AB12 CDE,Not checked yet",
    );
  });
});
