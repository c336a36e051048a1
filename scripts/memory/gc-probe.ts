// Loaded into the service and the proxy by scripts/memory-after-attack.ts only, never by the
// apps: NODE_OPTIONS="--expose-gc --import scripts/memory/gc-probe.ts". On SIGUSR2 it collects
// all garbage (two full collections) and writes process.memoryUsage() to
// MEMORY_PROBE_DIR/<pid>.json, so the experiment can tell live heap from what RSS holds on to.
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.MEMORY_PROBE_DIR;
const gc = (globalThis as { gc?: () => void }).gc;

if (dir && gc) {
  process.on("SIGUSR2", () => {
    gc();
    gc();
    const file = join(dir, `${process.pid}.json`);
    writeFileSync(`${file}.next`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.next`, file);
  });
}
