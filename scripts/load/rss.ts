// The resident memory (RSS) of a process, from /proc: what the soak watches for growth.
import { readFileSync } from "node:fs";

/** Megabytes of RSS, or undefined where /proc cannot be read (not Linux, or gone). */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** Samples every `everyMs` until stopped: [seconds since start, MB] per process. */
export function sampleRss(
  pids: Record<string, number | undefined>,
  everyMs = 1000,
) {
  const started = Date.now();
  const samples: Record<string, Array<[number, number]>> = {};
  for (const name of Object.keys(pids)) samples[name] = [];
  const take = () => {
    const at = (Date.now() - started) / 1000;
    for (const [name, pid] of Object.entries(pids)) {
      const mb = rssMb(pid);
      if (mb !== undefined) samples[name]?.push([at, mb]);
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
    },
  };
}
