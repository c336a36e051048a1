import { describe, expect, it } from "vitest";
import { parseCommandStats, perRequest } from "./cluster-stores.ts";

describe("parseCommandStats", () => {
  it("reads each command's calls and time from Redis's INFO commandstats", () => {
    const info = [
      "# Commandstats",
      "cmdstat_evalsha:calls=300,usec=4500,usec_per_call=15.00,rejected_calls=0,failed_calls=0",
      "cmdstat_get:calls=2,usec=3,usec_per_call=1.50,rejected_calls=0,failed_calls=0",
      "",
    ].join("\r\n");
    expect([...parseCommandStats(info)]).toEqual([
      ["evalsha", { calls: 300, ms: 4.5 }],
      ["get", { calls: 2, ms: 0.003 }],
    ]);
  });
});

describe("perRequest", () => {
  const before = new Map([
    ["SELECT session", { calls: 100, ms: 10 }],
    ["INSERT audit", { calls: 50, ms: 20 }],
    ["SELECT FROM pg_stat_statements", { calls: 1, ms: 1 }],
  ]);
  const after = new Map([
    ["SELECT session", { calls: 300, ms: 30 }],
    ["INSERT audit", { calls: 150, ms: 80 }],
    ["SELECT FROM pg_stat_statements", { calls: 2, ms: 2 }],
    ["UPDATE new", { calls: 100, ms: 5 }],
    ["SELECT idle", { calls: 7, ms: 1 }],
  ]);

  it("counts the calls and the server's time between two readings, per request, most called first", () => {
    const result = perRequest(before, after, 100, {
      skip: (name) => name.includes("pg_stat_statements"),
    });
    expect(result.top.map((row) => row.name)).toEqual([
      "SELECT session",
      "INSERT audit",
      "UPDATE new",
      "SELECT idle",
    ]);
    expect(result.calls).toBeCloseTo(2 + 1 + 1 + 0.07, 10);
    expect(result.us).toBeCloseTo((20 + 60 + 5 + 1) * 10, 6);
    expect(result.top[0]).toEqual({
      name: "SELECT session",
      calls: 2,
      us: 200,
    });
  });

  it("keeps at most `top` rows, and leaves out what did not run", () => {
    const result = perRequest(before, before, 10);
    expect(result).toEqual({ calls: 0, us: 0, top: [] });
    expect(perRequest(before, after, 100, { top: 1 }).top).toHaveLength(1);
  });
});
