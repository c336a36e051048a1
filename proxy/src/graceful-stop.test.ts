import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_HEADER, ComplianceRecordSchema } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { createTestService, type TestService } from "@vics/service/testing";
import {
  PROXY_ENTRY,
  type RunningChild,
  byMessage,
  signInAsFirstAdmin,
  startNode,
  stderrBesidesSignInLink,
} from "./testing/child-processes.ts";

/**
 * SIGTERM stops the proxy gracefully. It stops accepting, lets the
 * requests in flight finish within a bounded time, and exits 0. The upstream holds each
 * request until the test lets it go, so "in flight" is a fact, not a race.
 */

const children: RunningChild[] = [];
let service: TestService | undefined;

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.process.exitCode === null) child.process.kill("SIGKILL");
  await service?.close();
});
// Registered after, so it runs before: the upstream's sockets close before the service does.
const serve = loopbackServers();

/** The real service's answers to /v1 requests, each held until `release()`. */
async function heldUpstream() {
  service = await createTestService({ sandboxDelayMs: 0 });
  const key = await service.createKey("internal", "proxy");
  const arrivals: Array<() => void> = [];
  let arrived = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const app = service.app;
  const { base } = await serve(async (request) => {
    // The proxy's start-up probe of /health is answered at once.
    if (!new URL(request.url).pathname.startsWith("/v1/"))
      return app.fetch(request);
    arrived++;
    for (const resolve of arrivals.splice(0)) resolve();
    await released;
    return app.fetch(request);
  });
  return {
    key,
    url: base,
    /** Resolves once the upstream holds a request. */
    holding: () =>
      new Promise<void>((resolve) =>
        arrived > 0 ? resolve() : arrivals.push(resolve),
      ),
    release,
  };
}

async function startProxy(env: Record<string, string>) {
  const proxy = startNode(PROXY_ENTRY, {
    PORT: "0",
    WEB_DIST: mkdtempSync(`${tmpdir()}/vics-stop-`),
    ...env,
  });
  children.push(proxy);
  const url = new URL(
    String((await proxy.waitFor(byMessage("listening"))).url),
  );
  return { proxy, url, cookie: await signInAsFirstAdmin(proxy, url.href) };
}

/** Whether a new TCP connection to the port is accepted. */
function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const check = (url: URL, cookie: string) =>
  fetch(new URL("/api/v1/compliance/AB12CDE", url), {
    headers: { [CLIENT_HEADER]: "stop-test", Cookie: cookie },
  });

describe("SIGTERM", () => {
  it("stops accepting, finishes the request in flight with its real answer, and exits 0", async () => {
    const upstream = await heldUpstream();
    const { proxy, url, cookie } = await startProxy({
      UPSTREAM_URL: upstream.url,
      UPSTREAM_API_KEY: upstream.key,
    });
    expect(await connects(Number(url.port))).toBe(true);
    const inFlight = check(url, cookie);
    await upstream.holding();

    proxy.process.kill("SIGTERM");
    await proxy.waitFor(byMessage("stopping"));
    expect(await connects(Number(url.port))).toBe(false);

    upstream.release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(ComplianceRecordSchema.parse(await response.json())).toMatchObject({
      registration: "AB12CDE",
    });
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(proxy.events()).toContainEqual(
      expect.objectContaining({ msg: "stopped", finishedInFlight: 1 }),
    );
    // Finished, not cut off at the end of the grace time.
    expect(proxy.events().map((event) => event.msg)).not.toContain(
      "closing connections still open after the grace time",
    );
    expect(stderrBesidesSignInLink(proxy)).toBe("");
  }, 30_000);

  it("a request still in flight after the grace time is cut off, and the proxy still exits 0", async () => {
    const upstream = await heldUpstream();
    const { proxy, url, cookie } = await startProxy({
      UPSTREAM_URL: upstream.url,
      UPSTREAM_API_KEY: upstream.key,
      // Longer than the test: only the grace time can end the request.
      UPSTREAM_TIMEOUT_MS: "600000",
      SHUTDOWN_GRACE_MS: "200",
    });
    const inFlight = check(url, cookie).then(
      (response) => response.status,
      () => "cut off",
    );
    await upstream.holding();

    proxy.process.kill("SIGTERM");
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(await inFlight).toBe("cut off");
    expect(proxy.events()).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: "closing connections still open after the grace time",
        requests: 1,
        graceMs: 200,
      }),
    );
    upstream.release();
  }, 30_000);

  it("with no request in flight, it closes idle keep-alive connections at once and exits 0", async () => {
    const upstream = await heldUpstream();
    upstream.release();
    const { proxy, url, cookie } = await startProxy({
      UPSTREAM_URL: upstream.url,
      UPSTREAM_API_KEY: upstream.key,
      // Were the idle connection waited for, the grace time would end it with a warning.
      SHUTDOWN_GRACE_MS: "600000",
    });
    // Leaves a keep-alive connection open in fetch's pool.
    expect((await check(url, cookie)).status).toBe(200);
    proxy.process.kill("SIGTERM");
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(proxy.events()).toContainEqual(
      expect.objectContaining({ msg: "stopped", finishedInFlight: 0 }),
    );
    expect(proxy.events().map((event) => event.msg)).not.toContain(
      "closing connections still open after the grace time",
    );
  }, 30_000);
});
