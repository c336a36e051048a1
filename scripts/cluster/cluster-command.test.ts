// `npm run cluster` itself, as a person runs it: the command prints the https URL, the cluster
// answers there, and Ctrl-C (SIGINT) stops all of it: nginx, the five replicas, PostgreSQL and
// Redis no longer listen on the ports it printed.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { READY_PATH } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import { drillClient } from "./drill-client.ts";
import { ROOT } from "./start-cluster.ts";

const dataDir = mkdtempSync(join(tmpdir(), "vics-cluster-command-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Whether something accepts a connection on the loopback port. */
async function listening(port: number): Promise<boolean> {
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

/** Every port the command's summary names: https, the replicas, PostgreSQL and Redis. */
function printedPorts(summary: string): number[] {
  const https = /VICS cluster: https:\/\/127\.0\.0\.1:(\d+)\//.exec(summary);
  const replicas = [...summary.matchAll(/(?:proxies|services) \(([\d, ]+)\)/g)];
  const servers = /PostgreSQL on port (\d+), Redis on port (\d+)/.exec(summary);
  return [
    https?.[1],
    ...replicas.flatMap((match) => match[1]!.split(", ")),
    servers?.[1],
    servers?.[2],
  ].map(Number);
}

describe("npm run cluster", () => {
  it("prints the https URL it answers at, and Ctrl-C stops everything it started", async () => {
    const httpsPort = await freePort();
    const child = spawn(process.execPath, ["scripts/cluster.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        CLUSTER_DIR: dataDir,
        CLUSTER_PORT: String(httpsPort),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, "exit");
    try {
      const deadline = Date.now() + 240_000;
      while (!output.includes("Ctrl-C stops everything.")) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no summary from npm run cluster:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const url = `https://127.0.0.1:${httpsPort}`;
      expect(output).toContain(`VICS cluster: ${url}/`);
      const ports = printedPorts(output);
      expect(ports).toHaveLength(8);
      expect(ports.every((port) => Number.isInteger(port) && port > 0)).toBe(
        true,
      );
      for (const port of ports) expect(await listening(port)).toBe(true);

      // Through the printed URL, trusting the certificate it made.
      const client = drillClient({
        url,
        certificate: join(dataDir, "tls/vics-cluster.crt"),
      });
      try {
        const ready = await client.fetch(READY_PATH);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ status: "ready" });
      } finally {
        await client.close();
      }

      child.kill("SIGINT");
      const [code] = await exited;
      expect(code).toBe(0);
      for (const port of ports) expect(await listening(port)).toBe(false);
      // PostgreSQL's own lock file goes when it stops cleanly.
      expect(() =>
        readFileSync(join(dataDir, "postgres/postmaster.pid")),
      ).toThrow();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 300_000);
});
