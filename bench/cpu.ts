import { readFileSync } from "node:fs";

// CPU time a process spent serving a scenario, from /proc/<pid>/stat: on a machine with few
// cores the load generator, the proxy and the service share them, so requests/s alone cannot
// say which of them is expensive. Microseconds of CPU per request can.

/** Linux's USER_HZ: /proc reports CPU time in hundredths of a second everywhere it runs. */
export const TICKS_PER_SECOND = 100;

/** User + system CPU seconds from the text of /proc/<pid>/stat. */
export function statCpuSeconds(stat: string): number {
  // The command name (field 2) may hold spaces; the fields after its ")" are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return (user + system) / TICKS_PER_SECOND;
}

/** The CPU seconds of a process so far, or undefined where /proc cannot tell (not Linux). */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}
