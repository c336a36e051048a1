// The replicas' supervisor as systemd's Restart=on-failure: a replica that fails is started
// again, but one that a terminal's Ctrl-C reached (spawned in the instant it left the group)
// is the cluster's stop, not a failure to report or restart.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { freePort } from "@vics/shared/testing/free-port";
import { Replica } from "./supervisor.ts";

const made: string[] = [];
const replicas: Replica[] = [];
afterEach(async () => {
  await Promise.all(replicas.splice(0).map((replica) => replica.stop()));
  for (const dir of made.splice(0))
    rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

async function replicaDying(how: string) {
  const dir = mkdtempSync(join(tmpdir(), "vics-supervisor-"));
  made.push(dir);
  const logFile = join(dir, "replica.log");
  const replica = new Replica({
    name: "service-test",
    unit: {
      command: process.execPath,
      args: ["-e", how],
      cwd: dir,
      env: {},
      restartOnFailure: true,
      restartSeconds: 0.1,
    },
    port: await freePort(),
    readyPath: "/ready",
    logFile,
    readyTimeoutMs: 60_000,
  });
  replicas.push(replica);
  const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  // Never ready: it dies first. start() gives up once the test stops it.
  void replica.start().catch(() => undefined);
  // The stream opens its file a moment after the replica starts.
  const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  return { replica, log, said };
}

async function until(check: () => boolean) {
  while (!check()) await sleep(50);
}

describe("a replica's death", () => {
  it("by a terminal's SIGINT is neither reported nor restarted", async () => {
    const { replica, log, said } = await replicaDying(
      "process.kill(process.pid, 'SIGINT')",
    );
    await until(() => log().includes("terminal's signal"));
    // Ten times its RestartSec: a restart would have come.
    await sleep(1_000);
    expect(replica.starts).toBe(1);
    expect(log()).not.toContain("replica died");
    expect(said.mock.calls.join("")).not.toContain("died");
  });

  it("of a failure is reported and started again after RestartSec", async () => {
    const { replica, log, said } = await replicaDying("process.exit(3)");
    await until(() => replica.starts >= 2);
    expect(log()).toContain('"msg":"replica died","code":3');
    expect(said.mock.calls.join("")).toContain(
      "[service-test] died (exit code 3); starting it again in 0.1 s",
    );
  });
});
