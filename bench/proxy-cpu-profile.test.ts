import { describe, expect, it } from "vitest";
import { splitTable } from "./proxy-cpu-profile.ts";

describe("the proxy's split beside its floor's", () => {
  it("rows each part by the proxy's µs, with the difference, and leaves idle out", () => {
    const table = splitTable({
      proxy: {
        checks: 10,
        processCpuUs: 300,
        partsUs: { "session read": 20, "audit append": 90, idle: 50 },
      },
      bff_sessions: {
        checks: 10,
        processCpuUs: 150,
        partsUs: { "session read": 15, GC: 5, idle: 80 },
      },
    }).split("\n");
    expect(table.slice(2)).toEqual([
      "| audit append | 90.0 | 0.0 | 90.0 |",
      "| session read | 20.0 | 15.0 | 5.0 |",
      "| GC | 0.0 | 5.0 | -5.0 |",
      "| main thread, all parts | 110.0 | 20.0 | 90.0 |",
      "| process CPU (/proc, all threads) | 300.0 | 150.0 | 150.0 |",
    ]);
  });
});
