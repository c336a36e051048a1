// The children of a process, from /proc: nginx's workers, which its master forks (the cluster
// waits for them after a reload; the bench reads nginx's CPU from its one worker).
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
      // The command name (field 2) may hold spaces; the parent is the second field after it.
      const parent = Number(
        stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1],
      );
      if (parent === pid) children.push(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return children;
}
