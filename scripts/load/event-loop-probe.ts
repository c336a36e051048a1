// Loaded into the proxy by the fleet-save attack only (scripts/attack/fleet-save.ts), never by
// the apps: NODE_OPTIONS="--import scripts/load/event-loop-probe.ts". It watches the process's
// event loop with perf_hooks' monitorEventLoopDelay and, on each SIGUSR2, writes the delays
// seen since the one before (ms: max, p99, mean) to EVENT_LOOP_PROBE_DIR/<pid>.json, then
// starts again. A signal waits for the loop like any callback: it answers after a stall.
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const dir = process.env.EVENT_LOOP_PROBE_DIR;

if (dir) {
  const delays = monitorEventLoopDelay({ resolution: 5 });
  delays.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on("SIGUSR2", () => {
    const file = join(dir, `${process.pid}.json`);
    writeFileSync(
      `${file}.next`,
      JSON.stringify({
        maxMs: ms(delays.max),
        p99Ms: ms(delays.percentile(99)),
        meanMs: ms(delays.mean),
        samples: delays.count,
      }),
    );
    renameSync(`${file}.next`, file);
    delays.reset();
  });
}
