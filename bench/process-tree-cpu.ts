import { readFileSync } from "node:fs";
import { childPids } from "../scripts/cluster/child-pids.ts";
import { TICKS_PER_SECOND } from "./cpu.ts";

// CPU time of a server that runs as a tree of processes (PostgreSQL's postmaster and its
// backends, nginx's master and workers), from /proc: the root's own time and the time of the
// children it has already reaped (cutime, cstime), and the same for each live process below
// it. A backend that ends between two readings moves from the live sum to the root's reaped
// time, so the difference of two readings counts it once.

/** utime + stime + cutime + cstime, in ticks, from the text of /proc/<pid>/stat. */
export function statTicks(stat: string): number {
  // The command name (field 2) may hold spaces; after it: state, ppid, ... utime is the 12th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return [11, 12, 13, 14]
    .map((at) => Number(fields[at]))
    .reduce((sum, value) => sum + value, 0);
}

const procStat = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8");

/**
 * CPU seconds of `root` and every process below it so far, or undefined when `root` is not
 * running (or /proc cannot tell: not Linux). `read` and `children` are for tests.
 */
export function treeCpuSeconds(
  root: number | undefined,
  read: (pid: number) => string = procStat,
  children: (pid: number) => number[] = childPids,
): number | undefined {
  if (root === undefined) return undefined;
  let ticks: number;
  try {
    ticks = statTicks(read(root));
  } catch {
    return undefined;
  }
  const seen = new Set([root]);
  const pending = children(root);
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    try {
      ticks += statTicks(read(pid));
    } catch {
      // Ended since it was listed: its time is in its parent's reaped time from now on.
    }
    pending.push(...children(pid));
  }
  return Number.isFinite(ticks) ? ticks / TICKS_PER_SECOND : undefined;
}
