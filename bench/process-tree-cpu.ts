import { readdirSync, readFileSync } from "node:fs";

// CPU time of a server that runs as a tree of processes (PostgreSQL's postmaster and its
// backends, nginx's master and workers), from /proc: the root's own time, the time of the
// children it has already reaped (cutime, cstime), and each live child's, with its reaped
// children. A backend that ends between two readings moves from the live sum to the root's
// reaped time, so the difference of two readings counts it once.

/** Linux's USER_HZ, as in cpu.ts. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  parent: number;
  /** utime + stime + cutime + cstime, in ticks. */
  ticks: number;
}

/** The fields of /proc/<pid>/stat this needs; undefined for text it cannot read. */
export function parseStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number(text.slice(0, text.indexOf(" ")));
  // After ") ": state (3), ppid (4), ... utime (14), stime (15), cutime (16), cstime (17).
  const fields = text.slice(close + 2).split(" ");
  const parent = Number(fields[1]);
  const ticks = [11, 12, 13, 14]
    .map((at) => Number(fields[at]))
    .reduce((sum, value) => sum + value, 0);
  return Number.isInteger(pid) &&
    Number.isInteger(parent) &&
    Number.isFinite(ticks)
    ? { pid, parent, ticks }
    : undefined;
}

/** Every process's stat text now, by reading /proc; a process that ends meanwhile is skipped. */
export function readAllStats(): string[] {
  const texts: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      texts.push(readFileSync(`/proc/${name}/stat`, "utf8"));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return texts;
}

/**
 * CPU seconds of `root` and every process below it so far, or undefined when `root` is not
 * running (or /proc cannot tell: not Linux).
 */
export function treeCpuSeconds(
  root: number | undefined,
  stats: () => string[] = readAllStats,
): number | undefined {
  if (root === undefined) return undefined;
  let all: ProcStat[];
  try {
    all = stats()
      .map(parseStat)
      .filter((stat): stat is ProcStat => stat !== undefined);
  } catch {
    return undefined;
  }
  if (!all.some((stat) => stat.pid === root)) return undefined;
  const children = new Map<number, ProcStat[]>();
  for (const stat of all)
    children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
  let ticks = 0;
  const pending = [root];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    ticks += all.find((stat) => stat.pid === pid)?.ticks ?? 0;
    for (const child of children.get(pid) ?? []) pending.push(child.pid);
  }
  return ticks / TICKS_PER_SECOND;
}
