import { expect, it } from "vitest";
import { allocationTable } from "./server-allocation.ts";

it("puts the two servers' kB a check side by side, the largest gap first, the rest summed", () => {
  const table = allocationTable(
    { session: 8192, http: 20480, logging: 5120, edges: 1024 },
    { http: 16384, logging: 4096, edges: 1024, other: 2048 },
    "Part",
    3,
  ).split("\n");
  expect(table[0]).toBe(
    "| Part | Proxy, kB a check | Floor, kB a check | Gap |",
  );
  expect(table.slice(2)).toEqual([
    "| session | 8.00 | 0.00 | 8.00 |",
    "| http | 20.00 | 16.00 | 4.00 |",
    "| logging | 5.00 | 4.00 | 1.00 |",
    // edges (gap 0) and other (gap -2), summed.
    "| the other 2 | 1.00 | 3.00 | -2.00 |",
    "| Total | 34.00 | 23.00 | 11.00 |",
  ]);
});
