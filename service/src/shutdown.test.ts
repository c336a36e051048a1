import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { ComplianceRecordSchema } from "@vics/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "./keys/api-key.ts";
import { SANDBOX_DELAY_MS } from "./sandbox.ts";
import { openStore } from "./store/open-store.ts";
import {
  startService,
  type ServiceProcess,
} from "./testing/service-process.ts";

/**
 * SIGTERM stops the service gracefully. It stops accepting at once, lets the requests
 * in flight finish within its grace period (index.ts, SHUTDOWN_GRACE_MS: 5 s), cuts whatever
 * is left after it, and exits 0. The real process, on a real socket.
 */

const GRACE_MS = 5000;
/** Beyond the grace period and the slowest request: a process still running then has hung. */
const EXIT_BOUND_MS = GRACE_MS + SANDBOX_DELAY_MS + 5000;
const STOPPING = "stopping: closing the server and the database";
const GRACE_OVER = "closing connections still open after the grace time";

let dir: string;
let databasePath: string;
let key: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vics-shutdown-"));
  databasePath = join(dir, "vics.sqlite");
  const store = await openStore({ path: databasePath }, new Date());
  key = (await issueApiKey(store, "internal", "shutdown", new Date())).key;
  await store.close();
}, 60_000);
afterEach(() => {
  service?.child.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A raw connection with one request written; resolves once it is connected. */
async function rawRequest(port: number, request: string): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(request);
  return socket;
}

/** Resolves with `value`, or with "hung" when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "hung"> {
  return Promise.race([promise, delay(ms, "hung" as const, { ref: false })]);
}

function refusedConnection(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("accepted");
    });
    socket.once("error", (error: NodeJS.ErrnoException) =>
      resolve(error.code ?? error.message),
    );
  });
}

describe("SIGTERM", { timeout: 60_000 }, () => {
  it("lets a request in flight finish with its 200, refuses new connections at once, closes idle ones, and exits 0", async () => {
    service = startService(databasePath);
    const url = new URL(await service.url);
    const port = Number(url.port);

    // An idle keep-alive connection, as a browser or the proxy holds them.
    const idle = await rawRequest(
      port,
      "GET /health HTTP/1.1\r\nHost: vics\r\nConnection: keep-alive\r\n\r\n",
    );
    await once(idle, "data");
    const idleClosed = once(idle, "close");

    // ER19SLO answers after SANDBOX_DELAY_MS: in flight when the signal comes.
    const slow = fetch(`${url.origin}/v1/compliance/ER19SLO`, {
      headers: { "X-API-Key": key },
    });
    await delay(SANDBOX_DELAY_MS / 6);
    service.child.kill("SIGTERM");
    await service.event(STOPPING);

    expect(await refusedConnection(port)).toBe("ECONNREFUSED");
    expect(await within(idleClosed, GRACE_MS)).not.toBe("hung");

    const response = await slow;
    expect(response.status).toBe(200);
    // Answered, then its connection closed: nothing is left to wait for.
    expect(response.headers.get("Connection")).toBe("close");
    const record = ComplianceRecordSchema.parse(await response.json());
    expect(record.registration).toBe("ER19SLO");

    expect(await within(service.exited, EXIT_BOUND_MS)).toEqual({
      code: 0,
      signal: null,
    });
    // It stopped when the last request was done, not when the grace time ran out.
    expect(service.events().map((event) => event.msg)).not.toContain(
      GRACE_OVER,
    );

    // The slow request was logged when it ended, after the stop began: it was in flight.
    const messages = service.events().map((event) => event.msg);
    const stopping = messages.indexOf(STOPPING);
    const slowLine = service
      .events()
      .findIndex(
        (event) =>
          event.msg === "request" &&
          event.route === "/v1/compliance/:registration",
      );
    expect(stopping).toBeGreaterThan(-1);
    expect(slowLine).toBeGreaterThan(stopping);
    // And stopped, with the one request it let finish. (Not checked in order: at exit,
    // pino's synchronous flush can land before an asynchronous write still under way.)
    expect(service.events()).toContainEqual(
      expect.objectContaining({ msg: "stopped", finishedInFlight: 1 }),
    );
    expect(service.stderr()).toBe("");
  });

  it("cuts a request that is still not done when the grace period ends, and exits 0", async () => {
    service = startService(databasePath);
    const port = Number(new URL(await service.url).port);
    // A bulk request whose body never arrives: the service waits for it until the cut.
    const stuck = await rawRequest(
      port,
      [
        "POST /v1/vehicle/bulk-insurance HTTP/1.1",
        "Host: vics",
        `X-API-Key: ${key}`,
        "Content-Type: application/json",
        "Content-Length: 1000",
        "",
        '{"registrations":["AB12',
      ].join("\r\n"),
    );
    const stuckClosed = once(stuck, "close");
    await delay(200);
    service.child.kill("SIGTERM");
    await service.event(STOPPING);
    expect(await refusedConnection(port)).toBe("ECONNREFUSED");

    expect(await within(service.exited, EXIT_BOUND_MS)).toEqual({
      code: 0,
      signal: null,
    });
    expect(await within(stuckClosed, 1000)).not.toBe("hung");
    expect(service.events()).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: GRACE_OVER,
        requests: 1,
        graceMs: GRACE_MS,
      }),
    );
  });
});
