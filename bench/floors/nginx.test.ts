import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "@vics/shared/testing/free-port";
import { findNginx } from "../../scripts/cluster/nginx.ts";
import {
  childPids,
  scannedChildPids,
} from "../../scripts/cluster/child-pids.ts";
import { nginxConfig, startNginx } from "./nginx.ts";

describe("nginxConfig", () => {
  const config = nginxConfig({
    directory: "/tmp/bench-nginx",
    port: 41000,
    upstreamPort: 42000,
    key: "k".repeat(48),
  });

  it("listens on loopback only, with one worker", () => {
    expect(config).toContain("listen 127.0.0.1:41000;");
    expect(config).toMatch(/^worker_processes 1;$/m);
  });

  it("injects the key and keeps upstream connections alive", () => {
    expect(config).toMatch(
      /upstream vics_service \{\s*server 127\.0\.0\.1:42000;\s*keepalive 64;/,
    );
    expect(config).toContain(`proxy_set_header X-API-Key "${"k".repeat(48)}";`);
    expect(config).toContain("proxy_http_version 1.1;");
    expect(config).toContain('proxy_set_header Connection "";');
  });

  it("maps /api/v1/... to the service's /v1/..., as the VICS proxy does", () => {
    expect(config).toMatch(
      /location \/api\/ \{\s*proxy_pass http:\/\/vics_service\/;/,
    );
  });

  it("keeps its pid, logs and temp files in its own folder", () => {
    expect(config).toContain("pid /tmp/bench-nginx/nginx.pid;");
    expect(config).toContain("error_log /tmp/bench-nginx/error.log warn;");
    expect(config).toContain("proxy_temp_path /tmp/bench-nginx/proxy_temp;");
  });
});

describe("childPids", () => {
  it("finds a process's one child, listed by the kernel or scanned from /proc", async () => {
    // A stand-in for nginx's master and its worker: a shell waiting on a sleep it started.
    const master = spawn("sh", ["-c", "sleep 30 & wait"], { stdio: "ignore" });
    try {
      const pid = master.pid!;
      let children: number[] = [];
      for (let tries = 0; children.length === 0 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        children = childPids(pid);
      }
      expect(children).toHaveLength(1);
      expect(scannedChildPids(pid)).toEqual(children);
      const stat = readFileSync(`/proc/${children[0]}/stat`, "utf8");
      expect(stat).toContain("(sleep)");
    } finally {
      master.kill("SIGKILL");
      await once(master, "exit");
    }
  });
});

describe("startNginx", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("starts one worker, whose pid it gives for the bench to read its CPU", async () => {
    const binary = findNginx();
    if (!binary)
      throw new Error("nginx is not installed: apt-get install -y nginx");
    dir = mkdtempSync(join(tmpdir(), "vics-floor-nginx-"));
    // Started as root, the worker runs as nobody, which must reach the folder.
    chmodSync(dir, 0o755);
    const nginx = await startNginx({
      binary,
      directory: join(dir, "nginx"),
      // Nothing listens there: starting needs no upstream.
      serviceUrl: `http://127.0.0.1:${await freePort()}`,
      key: "k".repeat(48),
    });
    try {
      const master = nginx.process.pid!;
      const worker = nginx.workerPid();
      expect(worker).toBeDefined();
      expect(worker).not.toBe(master);
      expect(childPids(master)).toEqual([worker]);
      const commandLine = readFileSync(`/proc/${worker}/cmdline`, "utf8");
      expect(commandLine).toContain("worker process");
    } finally {
      await nginx.stop();
    }
  });
});
