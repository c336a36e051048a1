import { describe, expect, it } from "vitest";
import { parseStat, treeCpuSeconds } from "./process-tree-cpu.ts";

/** A /proc/<pid>/stat line with the given times (utime, stime, cutime, cstime, in ticks). */
const stat = (
  pid: number,
  parent: number,
  [utime, stime, cutime, cstime]: number[],
  name = "postgres",
) =>
  `${pid} (${name}) S ${parent} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 100 1000 10`;

describe("parseStat", () => {
  it("reads the parent and all four times, whatever the command's name holds", () => {
    expect(
      parseStat(stat(7, 1, [10, 20, 3, 4], "nginx: worker (x) y")),
    ).toEqual({ pid: 7, parent: 1, ticks: 37 });
  });
});

describe("treeCpuSeconds", () => {
  const tree = [
    stat(1, 0, [1000, 0, 0, 0], "init"),
    stat(100, 1, [50, 10, 200, 40]), // the postmaster, with 240 ticks of reaped backends
    stat(101, 100, [30, 5, 0, 0]), // a backend
    stat(102, 100, [60, 15, 0, 0]), // another
    stat(103, 102, [5, 0, 0, 0]), // a grandchild
    stat(200, 1, [999, 999, 0, 0], "redis-server"), // not below the root
  ];

  it("adds the root, its reaped children and every live process below it", () => {
    expect(treeCpuSeconds(100, () => tree)).toBeCloseTo(
      (50 + 10 + 200 + 40 + 35 + 75 + 5) / 100,
      10,
    );
  });

  it("counts a backend that ended between two readings once: its time moved to the root", () => {
    const before = treeCpuSeconds(100, () => tree)!;
    const after = treeCpuSeconds(100, () => [
      stat(100, 1, [50, 10, 200 + 30, 40 + 5], "postgres"),
      stat(102, 100, [60, 15, 0, 0]),
      stat(103, 102, [5, 0, 0, 0]),
    ])!;
    expect(after - before).toBeCloseTo(0, 10);
  });

  it("is undefined when the root is not running", () => {
    expect(treeCpuSeconds(999, () => tree)).toBeUndefined();
    expect(treeCpuSeconds(undefined, () => tree)).toBeUndefined();
  });

  it("reads this very process from /proc", () => {
    expect(treeCpuSeconds(process.pid)).toBeGreaterThan(0);
  });
});
