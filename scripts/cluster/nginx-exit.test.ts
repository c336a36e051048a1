// The cluster's nginx does not outlive the cluster's process: nginx runs in a process group of
// its own (so Ctrl-C reaches the cluster first), and when the process ends without stopping it
// (an error nothing caught), nginx's master and workers are killed on the way out, as
// PostgreSQL, Redis and the replicas are, and its ports are free again.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort, listening } from "@vics/shared/testing/free-port";
import { isRunning } from "./child-pids.ts";
import { findNginx } from "./nginx.ts";

const dir = mkdtempSync(join(tmpdir(), "vics-nginx-exit-"));
/** nginx's pids as the crashed script printed them, to clean up after a failure. */
let pids: number[] = [];
afterAll(() => {
  for (const pid of pids)
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  rmSync(dir, { recursive: true, force: true });
});

it("kills nginx, master and workers, when the process that started it dies of an error", async () => {
  const binary = findNginx();
  if (!binary)
    throw new Error("nginx is not installed: apt-get install -y nginx");
  const port = await freePort();
  const site = join(dir, "site.conf");
  writeFileSync(
    site,
    `server { listen 127.0.0.1:${port}; return 200 "ok"; }\n`,
  );
  // Starts nginx, prints its master's and workers' pids, then dies of an uncaught error.
  const script = `
    import { readFileSync } from "node:fs";
    import { Nginx } from ${JSON.stringify(join(import.meta.dirname, "nginx.ts"))};
    import { childPids } from ${JSON.stringify(join(import.meta.dirname, "child-pids.ts"))};
    const nginx = new Nginx(${JSON.stringify(binary)}, ${JSON.stringify(join(dir, "nginx"))}, ${JSON.stringify(site)});
    await nginx.start();
    const master = Number(readFileSync(${JSON.stringify(join(dir, "nginx", "nginx.pid"))}, "utf8"));
    console.log("pids " + [master, ...childPids(master)].join(","));
    throw new Error("the cluster script crashed");
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = await once(child, "exit");
  pids = (/pids ([\d,]+)/.exec(output)?.[1] ?? "").split(",").map(Number);
  expect(output).toContain("the cluster script crashed");
  expect(code).not.toBe(0);
  // The master and at least one worker.
  expect(pids.length, output).toBeGreaterThanOrEqual(2);
  // SIGKILL is immediate, but the kernel may take a moment to tear them down.
  const deadline = Date.now() + 5_000;
  while (pids.some(isRunning) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(pids.filter(isRunning)).toEqual([]);
  expect(await listening(port)).toBe(false);
}, 30_000);
