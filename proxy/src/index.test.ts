import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AUTH_PATHS, CLIENT_HEADER, paths, ProblemSchema } from "@vics/shared";
import {
  expectOneLogFormat,
  logEvents,
} from "@vics/server-kit/testing/log-lines";
import {
  expectOnlyAllowedLabels,
  seriesValue,
} from "@vics/server-kit/testing/metric-labels";
import { REPO_ROOT } from "./env.ts";
import { SIGN_IN_LINK } from "./testing/child-processes.ts";

/** Start-up as an operator meets it: `node src/index.ts` in a child process. */

const ENTRY = fileURLToPath(new URL("./index.ts", import.meta.url));
const KEY = "vics_child_process_key_77d1e0";

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function startProxy(env: Record<string, string>, cwd?: string) {
  const store = join(mkdtempSync(join(tmpdir(), "vics-proxy-store-")), "p.db");
  // Only what the test sets, so a developer's own exports cannot change the result.
  const child = spawn(process.execPath, [ENTRY], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      WEB_DIST: tmpdir(),
      PROXY_DATABASE_PATH: store,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      if (!stdout.endsWith("\n")) return;
      const listening = logEvents(stdout).find(
        (event) => event.msg === "listening",
      );
      if (listening) resolve(String(listening.url));
    });
    void exited.then((exit) => reject(new Error(`exited: ${exit.stderr}`)));
  });
  url.catch(() => {}); // only awaited by tests that expect a start
  return { child, exited, url, stderr: () => stderr };
}

async function closedPortUrl(): Promise<string> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function keyFile(contents: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "vics-proxy-key-")), "key");
  writeFileSync(file, contents);
  return file;
}

describe("node src/index.ts refuses to start", () => {
  it.each([
    [
      "without a key",
      {},
      /UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE must be set/,
    ],
    ["with an empty key", { UPSTREAM_API_KEY: "" }, /must be set/],
    [
      "with an empty key file",
      { UPSTREAM_API_KEY_FILE: keyFile("\n") },
      /is empty/,
    ],
    [
      "with a key file it cannot read",
      { UPSTREAM_API_KEY_FILE: "/nonexistent/vics-key" },
      /cannot read \/nonexistent\/vics-key/,
    ],
    [
      "on a non-loopback HOST without PUBLIC_ORIGIN",
      { HOST: "0.0.0.0", UPSTREAM_API_KEY: KEY },
      /HOST=0\.0\.0\.0 also needs PUBLIC_ORIGIN, the https address/,
    ],
    [
      "on a non-loopback HOST with an http PUBLIC_ORIGIN",
      {
        HOST: "0.0.0.0",
        PUBLIC_ORIGIN: "http://vics.example.org",
        UPSTREAM_API_KEY: KEY,
      },
      /travel only over https/,
    ],
    [
      "on a non-loopback HOST with https but no admin yet",
      {
        HOST: "0.0.0.0",
        PUBLIC_ORIGIN: "https://vics.example.org",
        UPSTREAM_API_KEY: KEY,
      },
      /has no active admin yet.*scripts\/users create --email you@example\.org --admin/s,
    ],
  ])("%s: exit 1 and a clear message", async (_case, env, message) => {
    const exit = await startProxy(env).exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/The proxy cannot start/);
    expect(exit.stderr).toMatch(message);
    expect(exit.stderr + exit.stdout).not.toContain(KEY);
  });

  it("never prints the key read from a file", async () => {
    const exit = await startProxy({
      HOST: "192.168.0.9",
      PORT: "nope",
      UPSTREAM_API_KEY_FILE: keyFile(KEY),
    }).exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/PORT/);
    expect(exit.stderr).toMatch(/needs PUBLIC_ORIGIN/);
    expect(exit.stderr + exit.stdout).not.toContain(KEY);
  });
});

describe("node src/index.ts with a good environment", () => {
  it("starts from another folder with paths relative to the repository root, logs JSON lines, answers, and stops cleanly on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-proxy-start-"));
    const elsewhere = join(dir, "some", "other", "folder");
    const webDist = join(dir, "dist");
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(webDist);
    writeFileSync(join(webDist, "index.html"), "<p>the test's web app</p>");
    const proxy = startProxy(
      {
        PORT: "0",
        UPSTREAM_API_KEY_FILE: relative(REPO_ROOT, keyFile(KEY)),
        WEB_DIST: relative(REPO_ROOT, webDist),
        // Nothing listens there any more: the proxy must answer 502 itself.
        UPSTREAM_URL: await closedPortUrl(),
      },
      elsewhere,
    );
    const url = await proxy.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    expect(await (await fetch(url)).text()).toBe("<p>the test's web app</p>");
    const check = `${url}api/v1/vehicle/AB12CDE/insurance`;
    const signedOut = await fetch(check, {
      headers: { [CLIENT_HEADER]: "index-test" },
    });
    expect(signedOut.status).toBe(401);

    // The first start prints a one-time link that signs in as the first admin, once.
    await expect.poll(() => SIGN_IN_LINK.test(proxy.stderr())).toBe(true);
    const [, link, token] = SIGN_IN_LINK.exec(proxy.stderr())!;
    expect(link!.startsWith(`${url}sign-in/link#token=`)).toBe(true);
    const useLink = () =>
      fetch(`${url}${AUTH_PATHS.useSignInLink.slice(1)}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          [CLIENT_HEADER]: "index-test",
        },
        body: JSON.stringify({ token }),
      });
    const signIn = await useLink();
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toMatchObject({
      user: { email: "admin@localhost", role: "admin" },
    });
    const cookie = signIn.headers.get("Set-Cookie")!.split(";")[0]!;
    expect((await useLink()).status).toBe(400);

    const response = await fetch(check, {
      headers: { [CLIENT_HEADER]: "index-test", Cookie: cookie },
    });
    expect(response.status).toBe(502);
    expect(ProblemSchema.parse(await response.json()).code).toBe("BAD_GATEWAY");

    proxy.child.kill("SIGTERM");
    const exit = await proxy.exited;
    expect(exit.code).toBe(0);
    // stderr holds the link for the person at the terminal and nothing else.
    expect(exit.stderr.replace(SIGN_IN_LINK, "")).toMatch(
      /^\s*Sign in to VICS as the first admin \(admin@localhost\) with this link; it works once, within 24 hours:\s*Then set a password on your account page \(your name, at the top of every page\), and invite your team from Users\.\s*$/,
    );
    const events = logEvents(exit.stdout);
    expectOneLogFormat(events, "proxy");
    expect(events).toContainEqual(
      expect.objectContaining({
        msg: "request",
        method: "GET",
        route: "/api/v1/vehicle/:registration/insurance",
        status: 502,
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: "the vehicle service is not answering; checks will fail until it does",
      }),
    );
    // Written just before the process exits: the asynchronous log was flushed. (The request's
    // own line may be written after it, as the response finishes: order is not asserted.)
    const stopping = events.findIndex((event) => event.msg === "stopping");
    expect(events[stopping]).toMatchObject({ signal: "SIGTERM" });
    expect(stopping).toBeGreaterThan(
      events.findIndex((event) => event.msg === "listening"),
    );
    expect(exit.stdout).not.toContain(KEY);
    expect(exit.stdout).not.toContain("AB12CDE");
    // Neither the link's token nor the session's id is ever a log line.
    expect(exit.stdout).not.toContain(token);
    expect(exit.stdout).not.toContain(cookie.split("=")[1]);
  });
});

describe("node src/index.ts behind PUBLIC_ORIGIN", () => {
  it("prints the first admin's link on the public origin, not the loopback address, which answers 421", async () => {
    const proxy = startProxy({
      PORT: "0",
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_URL: await closedPortUrl(),
      PUBLIC_ORIGIN: "https://vics.example.org",
    });
    const loopback = await proxy.url;
    await expect.poll(() => SIGN_IN_LINK.test(proxy.stderr())).toBe(true);
    const [, link] = SIGN_IN_LINK.exec(proxy.stderr())!;
    expect(
      link!.startsWith("https://vics.example.org/sign-in/link#token="),
    ).toBe(true);
    expect(proxy.stderr()).not.toContain(loopback);
    expect(proxy.stderr()).toMatch(/Then set a password on your account page/);
    // Why: the loopback address is not the site's name, and the proxy refuses it.
    expect((await fetch(`${loopback}sign-in/link`)).status).toBe(421);
    proxy.child.kill("SIGTERM");
    expect((await proxy.exited).code).toBe(0);
  });
});

describe("node src/index.ts and its data files", () => {
  it("makes a database another user could read the proxy's alone, and says so once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-proxy-modes-"));
    const database = join(dir, "proxy.sqlite");
    writeFileSync(database, "");
    chmodSync(database, 0o644);
    const proxy = startProxy({
      PORT: "0",
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_URL: await closedPortUrl(),
      PROXY_DATABASE_PATH: database,
    });
    await proxy.url;
    for (const file of [database, `${database}-wal`, `${database}-shm`])
      expect([file, statSync(file).mode & 0o777]).toEqual([file, 0o600]);
    proxy.child.kill("SIGTERM");
    const events = logEvents((await proxy.exited).stdout);
    const warnings = events.filter((event) =>
      String(event.msg).includes("readable by other users"),
    );
    expect(warnings).toEqual([
      expect.objectContaining({
        level: "warn",
        files: `${database} (was 644)`,
      }),
    ]);
  });
});

describe("node src/index.ts with METRICS_PORT", () => {
  it("serves its metrics on a listener of its own, with route templates and never a plate", async () => {
    const metricsPort = new URL(await closedPortUrl()).port;
    const watchKey = "vics_child_process_watch_key_4a51c2";
    const proxy = startProxy({
      PORT: "0",
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_URL: await closedPortUrl(),
      METRICS_PORT: metricsPort,
      // The re-checks on: their job gauges are shown.
      WATCH_API_KEY: watchKey,
    });
    const url = await proxy.url;
    const plate = "AB12CDE";
    const check = await fetch(`${url}api${paths.insurance(plate)}`, {
      headers: { [CLIENT_HEADER]: "index-test" },
    });
    expect(check.status).toBe(401);
    // A deep link of the web app, served by the static catch-all: its path holds the plate.
    await fetch(`${url}vehicles/${plate}`);
    // Wrong passwords for one account until the sign-in throttle refuses one (10 a window).
    const email = "someone@example.org";
    const tries: number[] = [];
    for (let i = 0; i < 11; i++) {
      const answer = await fetch(`${url}${AUTH_PATHS.signIn.slice(1)}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          [CLIENT_HEADER]: "index-test",
        },
        body: JSON.stringify({ email, password: "not the password" }),
      });
      tries.push(answer.status);
    }
    expect(tries.at(-1)).toBe(429);
    expect(tries.filter((status) => status === 429)).toHaveLength(1);
    expect(
      (await fetch(`${url}metrics`)).headers.get("content-type"),
    ).not.toMatch(/version=0\.0\.4/);

    const text = await (
      await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    ).text();
    expect(text).toMatch(
      /^http_requests_total\{method="GET",route="\/api\/v1\/vehicle\/:registration\/insurance",status="401",server="proxy"\} 1$/m,
    );
    const routes = [...text.matchAll(/route="([^"]*)"/g)].map(
      ([, route]) => route,
    );
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route).not.toMatch(/[A-Z]/);
    expect(text).not.toContain(plate);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(email);
    expect(text).not.toContain(watchKey);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{server="proxy"\} /m);
    expectOnlyAllowedLabels(text, [plate, KEY, email]);
    const value = (name: string, labels?: Record<string, string>) =>
      seriesValue(text, name, labels);
    expect(value("vics_ready")).toBe(1);
    expect([
      value("vics_rate_limit_refusals_total", { kind: "sign_in" }),
      value("vics_rate_limit_refusals_total", { kind: "user" }),
    ]).toEqual([1, 0]);
    // Each refused sign-in was recorded: one batch or more, none failed.
    expect(value("vics_audit_write_duration_seconds_count")).toBeGreaterThan(0);
    expect(value("vics_audit_write_failures_total")).toBe(0);
    // Nothing was sent upstream: no session, so no check reached the pool.
    expect(value("vics_upstream_pool_requests", { state: "running" })).toBe(0);
    expect(
      value("vics_upstream_pool_connections", { state: "connected" }),
    ).toBe(0);
    expect(value("vics_redis_errors_total")).toBe(0);
    expect(value("vics_postgres_errors_total")).toBe(0);
    // The re-checks' queues: no delivery owed (their sweeps, started at once, fail upstream).
    expect(value("vics_job_queue_depth", { queue: "delivery" })).toBe(0);
    expect(value("vics_job_queue_depth", { queue: "sweep" })).toBeDefined();
    expect(text).not.toMatch(/^vics_deliveries_pending\{/m);
    // SQLite: no pool to show.
    expect(text).not.toMatch(/^vics_db_pool_connections\{/m);

    proxy.child.kill("SIGTERM");
    const exit = await proxy.exited;
    expect(exit.code).toBe(0);
    expect(logEvents(exit.stdout)).toContainEqual(
      expect.objectContaining({
        msg: "metrics listening",
        url: `http://127.0.0.1:${metricsPort}/metrics`,
      }),
    );
  });
});
