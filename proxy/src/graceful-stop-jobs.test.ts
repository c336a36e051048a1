import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { AUTH_PATHS, CLIENT_HEADER, FLEET_PATHS } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import {
  startPostgres,
  type PostgresServer,
} from "@vics/server-kit/testing/postgres-server";
import { createTestService, type TestService } from "@vics/service/testing";
import { openPgPool } from "@vics/server-kit/postgres";
import { openPostgresProxyStore } from "./team/store/postgres/postgres-proxy-store.ts";
import {
  PROXY_ENTRY,
  type RunningChild,
  byMessage,
  signInAsFirstAdmin,
  startNode,
} from "./testing/child-processes.ts";
import { firstAdminSignInLink } from "./team/users/first-admin.ts";
import { JOBS_SCHEMA } from "./team/store/postgres/jobs-schema.ts";
import { SWEEP_QUEUE } from "./team/watch/jobs/pg-boss-jobs.ts";

/**
 * SIGTERM while a watched fleet's first check is under way (saving a fleet queues it at once):
 * the proxy abandons the check and exits 0, with "stopped" logged, well inside the 15 s a
 * supervisor (systemd, scripts/cluster) gives it before SIGKILL. On PostgreSQL (pg-boss) and on
 * SQLite (croner in this process). The upstream holds the check's requests, so "under way" is a
 * fact, not a race.
 */

const children: RunningChild[] = [];
const services: TestService[] = [];
let postgres: PostgresServer | undefined;

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.process.exitCode === null) child.process.kill("SIGKILL");
  for (const service of services.splice(0)) await service.close();
});
afterAll(async () => {
  await postgres?.close();
});
// Registered after, so it runs before: the upstream's sockets close before the service does.
const serve = loopbackServers();

/** The real service, holding every /v1 request (the check's) until the test ends. */
async function holdingUpstream() {
  const service = await createTestService({ sandboxDelayMs: 0 });
  services.push(service);
  const key = await service.createKey("internal", "proxy");
  const watchKey = await service.createKey("internal", "re-checks");
  let held = 0;
  const arrivals: Array<() => void> = [];
  const { base } = await serve(async (request) => {
    // The proxy's start-up probe of /health is answered at once.
    if (!new URL(request.url).pathname.startsWith("/v1/"))
      return service.app.fetch(request);
    held++;
    for (const resolve of arrivals.splice(0)) resolve();
    // Never answered: only the stop can end the check.
    return new Promise<Response>(() => undefined);
  });
  return {
    env: { UPSTREAM_URL: base, UPSTREAM_API_KEY: key, WATCH_API_KEY: watchKey },
    /** Resolves once the upstream holds one of the check's requests. */
    holding: () =>
      new Promise<void>((resolve) =>
        held > 0 ? resolve() : arrivals.push(resolve),
      ),
  };
}

function startProxy(env: Record<string, string>) {
  const proxy = startNode(PROXY_ENTRY, {
    PORT: "0",
    WEB_DIST: mkdtempSync(`${tmpdir()}/vics-stop-jobs-`),
    ...env,
  });
  children.push(proxy);
  return proxy;
}

async function listening(proxy: RunningChild): Promise<URL> {
  return new URL(String((await proxy.waitFor(byMessage("listening"))).url));
}

/** On PostgreSQL no link is printed: the test makes the first admin's, as npm start would. */
async function signInOnPostgres(databaseUrl: string, proxyUrl: URL) {
  const store = await openPostgresProxyStore({
    url: databaseUrl,
    auditRetentionDays: 30,
    applicationName: "vics-stop-jobs-test",
  });
  try {
    const link = await firstAdminSignInLink(store, {
      email: "admin@localhost",
      origin: proxyUrl.origin,
      now: Date.now(),
    });
    const token = link?.url.split("#token=")[1];
    if (!token) throw new Error("no first admin's link");
    const response = await fetch(new URL(AUTH_PATHS.useSignInLink, proxyUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "test" },
      body: JSON.stringify({ token }),
    });
    expect(response.status).toBe(200);
    return response.headers.get("Set-Cookie")!.split(";")[0]!;
  } finally {
    await store.close();
  }
}

async function saveFleet(proxyUrl: URL, cookie: string) {
  const response = await fetch(new URL(FLEET_PATHS.fleets, proxyUrl), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      [CLIENT_HEADER]: "stop-jobs-test",
      Cookie: cookie,
    },
    body: JSON.stringify({
      name: "Vans",
      columns: ["Driver"],
      vehicles: [
        { registration: "AB12CDE", cells: ["Ann"] },
        { registration: "CD34EFG", cells: ["Bo"] },
      ],
    }),
  });
  expect(response.status).toBe(201);
}

/** SIGTERM, then how the proxy ended and how long it took. */
async function stop(proxy: RunningChild) {
  const sent = Date.now();
  proxy.process.kill("SIGTERM");
  const exited = await proxy.exited;
  return { exited, ms: Date.now() - sent };
}

/** Well inside the 15 s before a supervisor's SIGKILL. */
const PROMPTLY_MS = 5_000;

describe("SIGTERM while a fleet's first check is under way", () => {
  it("on PostgreSQL (pg-boss): the check is abandoned and the proxy exits 0 promptly", async () => {
    postgres ??= await startPostgres();
    const databaseUrl = await postgres.createDatabase("stop_jobs");
    const upstream = await holdingUpstream();
    // The grace time as the cluster's replicas have it (UPSTREAM_TIMEOUT_MS + 1 s).
    const proxy = startProxy({ ...upstream.env, DATABASE_URL: databaseUrl });
    const url = await listening(proxy);
    const cookie = await signInOnPostgres(databaseUrl, url);
    await saveFleet(url, cookie);
    await upstream.holding();

    const { exited, ms } = await stop(proxy);
    expect(exited).toEqual({ code: 0, signal: null });
    expect(proxy.events().map((event) => event.msg)).toContain("stopped");
    expect(ms).toBeLessThan(PROMPTLY_MS);

    // Abandoned, not finished: its answered batches are kept (none here), its run says so, and
    // its job is failed, so another replica (or this one, back) checks the fleet again.
    const store = await openPostgresProxyStore({
      url: databaseUrl,
      auditRetentionDays: 30,
      applicationName: "vics-stop-jobs-test",
    });
    try {
      expect(await store.watchRuns(10)).toEqual([
        expect.objectContaining({ kind: "on demand", outcome: "cancelled" }),
      ]);
    } finally {
      await store.close();
    }
    const pool = openPgPool({
      url: databaseUrl,
      applicationName: "vics-stop-jobs-test",
    });
    try {
      const { rows } = await pool.query<{ state: string }>(
        `SELECT state FROM ${JOBS_SCHEMA}.job WHERE name = $1`,
        [SWEEP_QUEUE],
      );
      expect(rows).toEqual([{ state: "retry" }]);
    } finally {
      await pool.end();
    }
  }, 90_000);

  it("on SQLite (in this process): the check is abandoned and the proxy exits 0 promptly", async () => {
    const upstream = await holdingUpstream();
    const proxy = startProxy(upstream.env);
    const url = await listening(proxy);
    const cookie = await signInAsFirstAdmin(proxy, url.href);
    await saveFleet(url, cookie);
    await upstream.holding();

    const { exited, ms } = await stop(proxy);
    expect(exited).toEqual({ code: 0, signal: null });
    expect(proxy.events().map((event) => event.msg)).toContain("stopped");
    expect(ms).toBeLessThan(PROMPTLY_MS);
  }, 90_000);
});
