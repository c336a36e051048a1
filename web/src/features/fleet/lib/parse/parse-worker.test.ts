// The worker entry, run in jsdom: `self` is the window here, so its postMessage is watched.
import { describe, expect, it, vi } from "vitest";
import type { ParseResponse } from "./run-parse.ts";

describe("parse-worker", () => {
  it("answers a request with one message", async () => {
    const posted = new Promise<ParseResponse>((resolve) => {
      vi.spyOn(window, "postMessage").mockImplementation((message: unknown) =>
        resolve(message as ParseResponse),
      );
    });
    await import("./parse-worker.ts");
    const bytes = new TextEncoder().encode("Registration\nAB12CDE\n").buffer;
    window.onmessage?.(
      new MessageEvent("message", {
        data: { kind: "file", name: "a.csv", bytes },
      }),
    );
    expect(await posted).toEqual({
      ok: true,
      table: {
        source: "a.csv",
        header: ["Registration"],
        rows: [{ line: 2, cells: ["AB12CDE"] }],
        columnCount: 1,
      },
    });
  });
});
