import { describe, expect, it } from "vitest";
import { placesTable } from "./cluster-cpu-profile.ts";

describe("a role's places in the single stack beside the cluster", () => {
  it("scales each column's samples to its CPU, rows by the difference, sums the rest and leaves idle out", () => {
    const table = placesTable(
      "service",
      // 100 µs of samples for 200 µs of CPU: each place doubled.
      {
        processes: 1,
        processCpuUs: 200,
        placesUs: {
          hono: 60,
          "native writev": 0,
          pg: 0,
          zod: 40,
          "(idle)": 500,
        },
      },
      // 400 µs of samples (a process waiting for a core is sampled where it waits) for 800.
      {
        processes: 3,
        processCpuUs: 800,
        placesUs: {
          hono: 100,
          "native writev": 200,
          pg: 60,
          zod: 40,
          "(idle)": 90,
        },
      },
      2,
    ).split("\n");
    expect(table).toEqual([
      "| service: place (µs a check, scaled to CPU) | single (1) | cluster (3) | cluster − single |",
      "| --- | ---: | ---: | ---: |",
      "| native writev | 0 | 400 | 400 |",
      "| pg | 0 | 120 | 120 |",
      "| 2 other places | 200 | 280 | 80 |",
      "| process CPU (/proc, all threads) | 200 | 800 | 600 |",
      "| main thread's samples, unscaled (wall time) | 100 | 400 | 300 |",
    ]);
  });
});
