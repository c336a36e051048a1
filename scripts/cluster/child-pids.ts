// The children of a process, from /proc: nginx's workers, which its master forks (the cluster
// waits for them after a reload; the bench reads nginx's CPU from its one worker); and whether
// a process runs, for the tests that check nothing the cluster started is left.
import { readdirSync, readFileSync } from "node:fs";

/**
 * The pids of `pid`'s children: from /proc/<pid>/task/<pid>/children where the kernel keeps it,
 * else from every process's parent in /proc/<n>/stat. Empty where there is no /proc.
 */
export function childPids(pid: number): number[] {
  try {
    const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
    return listed.trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // Kernels built without CONFIG_PROC_CHILDREN.
    return scannedChildPids(pid);
  }
}

/**
 * The fields of a /proc/<n>/stat after the command name (field 2, which may hold spaces): the
 * state (R, S, Z...), then the parent's pid.
 */
function fieldsAfterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Whether the process runs (a zombie waiting for its parent to reap it does not). */
export function isRunning(pid: number): boolean {
  try {
    return (
      fieldsAfterName(readFileSync(`/proc/${pid}/stat`, "utf8"))[0] !== "Z"
    );
  } catch {
    return false;
  }
}

/** The same from every process's parent, as /proc/<n>/stat gives it. */
export function scannedChildPids(pid: number): number[] {
  const children: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(fieldsAfterName(stat)[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return children;
}
