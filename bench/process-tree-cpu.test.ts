import { describe, expect, it } from "vitest";
import { statTicks, treeCpuSeconds } from "./process-tree-cpu.ts";

/** A /proc/<pid>/stat line with the given times (utime, stime, cutime, cstime, in ticks). */
const stat = (
  pid: number,
  parent: number,
  [utime, stime, cutime, cstime]: number[],
  name = "postgres",
) =>
  `${pid} (${name}) S ${parent} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 100 1000 10`;

/** A /proc of these stat lines: each process's text and its children. */
const procOf = (lines: string[]) => {
  const byPid = new Map(
    lines.map((line) => [Number(line.split(" ")[0]), line]),
  );
  const parentOf = (line: string) =>
    Number(line.slice(line.lastIndexOf(")") + 2).split(" ")[1]);
  return {
    read: (pid: number) => {
      const line = byPid.get(pid);
      if (!line) throw new Error(`no process ${pid}`);
      return line;
    },
    children: (pid: number) =>
      [...byPid].filter(([, line]) => parentOf(line) === pid).map(([id]) => id),
  };
};

describe("statTicks", () => {
  it("adds the four times, whatever the command's name holds", () => {
    expect(statTicks(stat(7, 1, [10, 20, 3, 4], "nginx: worker (x) y"))).toBe(
      37,
    );
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
    const { read, children } = procOf(tree);
    expect(treeCpuSeconds(100, read, children)).toBeCloseTo(
      (50 + 10 + 200 + 40 + 35 + 75 + 5) / 100,
      10,
    );
  });

  it("counts a backend that ended between two readings once: its time moved to the root", () => {
    const before = procOf(tree);
    const after = procOf([
      stat(100, 1, [50, 10, 200 + 30, 40 + 5]),
      stat(102, 100, [60, 15, 0, 0]),
      stat(103, 102, [5, 0, 0, 0]),
    ]);
    expect(
      treeCpuSeconds(100, after.read, after.children)! -
        treeCpuSeconds(100, before.read, before.children)!,
    ).toBeCloseTo(0, 10);
  });

  it("skips a process that ended between its listing and its reading", () => {
    const { read, children } = procOf(tree);
    const listedOnly = (pid: number) => (pid === 101 ? [] : children(pid));
    expect(
      treeCpuSeconds(100, read, (pid) => [
        ...listedOnly(pid),
        ...(pid === 100 ? [101, 999] : []),
      ]),
    ).toBeCloseTo((50 + 10 + 200 + 40 + 35 + 75 + 5) / 100, 10);
  });

  it("is undefined when the root is not running", () => {
    const { read, children } = procOf(tree);
    expect(treeCpuSeconds(999, read, children)).toBeUndefined();
    expect(treeCpuSeconds(undefined, read, children)).toBeUndefined();
  });

  it("reads this very process from /proc", () => {
    expect(treeCpuSeconds(process.pid)).toBeGreaterThan(0);
  });
});
