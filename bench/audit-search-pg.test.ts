import { describe, expect, it } from "vitest";
import { pgAuditSearchFigures } from "./audit-search-pg.ts";

describe("the audit search figure on PostgreSQL", () => {
  it("seeds ten years into yearly partitions and one month into one, finds each plate's events in both, and times three rounds", async () => {
    const { tenYears, onePartition } = await pgAuditSearchFigures(20_000);
    // Ten years' retention: a year a partition; ten years reach into ten or eleven.
    expect(tenYears.partitions).toBeGreaterThanOrEqual(10);
    expect(tenYears.partitions).toBeLessThanOrEqual(11);
    expect(onePartition.partitions).toBe(1);
    for (const figures of [tenYears, onePartition]) {
      expect(figures.seedS).toBeGreaterThan(0);
      expect(figures.p50Ms).toBeGreaterThan(0);
      expect(figures.spreadMs[0]).toBeLessThanOrEqual(figures.p50Ms);
      expect(figures.spreadMs[1]).toBeGreaterThanOrEqual(figures.p50Ms);
    }
    // A PostgreSQL of its own to initialise and start, then 40,000 events to seed: 4.4 s in a
    // quiet CI run, against vitest's default of 5 s, and over it on a busy machine.
  }, 60_000);
});
