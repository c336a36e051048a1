import { expect, it } from "vitest";
import { measureAuditAppend } from "./audit-append.ts";

it("measures every variant on events that were all committed", async () => {
  const { figures, written } = await measureAuditAppend({
    rounds: 2,
    events: 48,
    prefill: 32,
  });
  // A variant whose appends wrote nothing, or whose index drop was skipped, would not be a
  // measure of anything: every file holds the prefill and both rounds, and each figure is a cost.
  expect(Object.keys(written)).toHaveLength(7);
  for (const count of Object.values(written)) expect(count).toBe(32 + 2 * 48);
  for (const { median, fastest, slowest } of Object.values(figures)) {
    expect(fastest).toBeGreaterThan(0);
    expect(fastest).toBeLessThanOrEqual(median);
    expect(median).toBeLessThanOrEqual(slowest);
  }
});
