// The connection guard on a real node:http server over real loopback sockets. Clients use
// their own loopback addresses (localAddress 127.0.0.x; Linux routes all of 127.0.0.0/8 to
// loopback). Idle times run on a clock the tests move, so nothing waits on a timer.
import { once } from "node:events";
import {
  Agent,
  type IncomingMessage,
  type Server,
  createServer,
  request,
} from "node:http";
import { type AddressInfo, type Socket, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ConnectionGuard,
  type ConnectionLimits,
  guardConnections,
} from "./connection-guard.ts";

const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Guarded {
  server: Server;
  guard: ConnectionGuard;
  port: number;
  /** Moves the guard's clock on. */
  advance(ms: number): void;
  /** Requests to /hold that the server has and does not answer yet. */
  held(): number;
  /** Answers every request held so far. */
  release(): void;
  warnings: Array<Record<string, unknown>>;
}

/**
 * A server answering "ok", or, for a request to /hold, only once `release()` is called. Its
 * keep-alive timeout is a minute, so any idle connection closed sooner was closed by the guard.
 */
async function guardedServer(
  limits: ConnectionLimits,
  realClock = false,
): Promise<Guarded> {
  let clock = 0;
  const held: Array<() => void> = [];
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const answer = () => res.end("ok");
    if (req.url === "/hold") held.push(answer);
    else answer();
  });
  const warnings: Array<Record<string, unknown>> = [];
  const guard = guardConnections(server, limits, {
    now: realClock ? undefined : () => clock,
    logger: { warn: (_message, fields = {}) => warnings.push(fields) },
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    server,
    guard,
    port: (server.address() as AddressInfo).port,
    advance: (ms) => (clock += ms),
    held: () => held.length,
    release: () => held.splice(0).forEach((answer) => answer()),
    warnings,
  };
}

/** A raw connection from `from` that sends nothing: what an idle-socket flood opens. */
async function idleSocket(port: number, from: string): Promise<Socket> {
  const socket = connect({ host: "127.0.0.1", port, localAddress: from });
  socket.on("error", () => {}); // the guard may reset it
  cleanups.push(() => socket.destroy());
  await once(socket, "connect");
  return socket;
}

const closed = (socket: Socket) =>
  socket.closed ? Promise.resolve() : once(socket, "close").then(() => {});

/** A GET from `from`, on the agent's connection when one is given; status, body and reuse. */
function get(port: number, from: string, path = "/", agent?: Agent) {
  return new Promise<{ status: number; body: string; reused: boolean }>(
    (resolve, reject) => {
      const sent = request({
        host: "127.0.0.1",
        port,
        path,
        localAddress: from,
        agent: agent ?? false,
      });
      sent.on("response", (response: IncomingMessage) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            reused: sent.reusedSocket,
          }),
        );
      });
      sent.on("error", reject);
      sent.end();
    },
  );
}

/** Waits (at most 4 s) until `done()`; `what` says what was awaited when it never is. */
async function until(done: () => boolean, what: () => string) {
  for (let tries = 0; !done(); tries++) {
    if (tries === 400) throw new Error(what());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the server counts `count` connections from `address`. */
function serverSees(guarded: Guarded, address: string, count: number) {
  return until(
    () => guarded.guard.open(address) === count,
    () =>
      `the server counts ${guarded.guard.open(address)} connections from ${address}, not ${count}`,
  );
}

describe("the cap per client address", () => {
  it("closes the sockets one address opens over its cap, while another address is answered", async () => {
    const guarded = await guardedServer({
      maxPerAddress: 5,
      maxTotal: 100,
      idleUnderPressureMs: 60_000,
    });
    const flood: Socket[] = [];
    for (let i = 0; i < 8; i++)
      flood.push(await idleSocket(guarded.port, "127.0.0.1"));
    // Each socket over the cap closed the address's longest-idle one: the first three.
    await Promise.all(flood.slice(0, 3).map(closed));
    await serverSees(guarded, "127.0.0.1", 5);
    expect(flood.slice(3).every((socket) => !socket.closed)).toBe(true);

    const other = await get(guarded.port, "127.0.0.2");
    expect(other).toMatchObject({ status: 200, body: "ok" });
    expect(guarded.guard.open("127.0.0.1")).toBe(5);
    expect(guarded.warnings[0]).toMatchObject({ closedForRoom: 1 });
  });

  it("never closes a connection with a request in flight: when all are busy, the new one is refused", async () => {
    const guarded = await guardedServer({
      maxPerAddress: 2,
      maxTotal: 100,
      idleUnderPressureMs: 60_000,
    });
    const busy = [
      get(guarded.port, "127.0.0.3", "/hold"),
      get(guarded.port, "127.0.0.3", "/hold"),
    ];
    // Busy once the server has both requests, not merely both connections.
    await until(
      () => guarded.held() === 2,
      () => `the server holds ${guarded.held()} requests, not 2`,
    );
    const refused = await idleSocket(guarded.port, "127.0.0.3");
    await closed(refused);
    expect(guarded.guard.open("127.0.0.3")).toBe(2);
    guarded.release();
    for (const answer of await Promise.all(busy))
      expect(answer).toMatchObject({ status: 200, body: "ok" });
    expect(guarded.warnings[0]).toMatchObject({ refused: 1 });
  });

  it("counts an IPv6 address by its /64 and an IPv4-mapped one as IPv4", async () => {
    const guarded = await guardedServer({
      maxPerAddress: 5,
      maxTotal: 100,
      idleUnderPressureMs: 60_000,
    });
    await idleSocket(guarded.port, "127.0.0.4");
    await serverSees(guarded, "127.0.0.4", 1);
    expect(guarded.guard.open("::ffff:127.0.0.4")).toBe(1);
    expect(guarded.guard.open("2001:db8::1")).toBe(0);
  });
});

describe("the cap in all", () => {
  it("makes room by closing the longest-idle connection, whoever holds it", async () => {
    const guarded = await guardedServer({
      maxPerAddress: 100,
      maxTotal: 6,
      pressureAt: 100,
      idleUnderPressureMs: 60_000,
    });
    const first = await idleSocket(guarded.port, "127.0.0.5");
    for (let i = 0; i < 5; i++) await idleSocket(guarded.port, "127.0.0.6");
    await serverSees(guarded, "127.0.0.6", 5);
    // Full: a request from a seventh connection takes the first one's place.
    expect(await get(guarded.port, "127.0.0.7")).toMatchObject({
      status: 200,
    });
    await closed(first);
    expect(guarded.guard.open()).toBeLessThanOrEqual(6);
  });
});

describe("under pressure", () => {
  it("closes idle keep-alive connections after idleUnderPressureMs, which it keeps otherwise", async () => {
    const guarded = await guardedServer({
      maxPerAddress: 100,
      maxTotal: 100,
      pressureAt: 10,
      idleUnderPressureMs: 1_000,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => agent.destroy());
    const staff = "127.0.0.8";
    expect(await get(guarded.port, staff, "/", agent)).toMatchObject({
      status: 200,
      reused: false,
    });

    // No pressure: idle twice as long, the keep-alive connection is still there and reused.
    guarded.advance(2_000);
    guarded.guard.sweep();
    expect(await get(guarded.port, staff, "/", agent)).toMatchObject({
      status: 200,
      reused: true,
    });
    const [kept] = Object.values(agent.freeSockets).flat();
    expect(kept).toBeDefined();

    // Ten idle sockets from a flood: pressure. The same idle time now closes it.
    const flood: Socket[] = [];
    for (let i = 0; i < 10; i++)
      flood.push(await idleSocket(guarded.port, "127.0.0.1"));
    await serverSees(guarded, "127.0.0.1", 10);
    guarded.advance(500);
    guarded.guard.sweep();
    expect(kept!.closed).toBe(false);
    guarded.advance(600);
    guarded.guard.sweep();
    await closed(kept!);
    // The flood's sockets, idle as long by then, went too; nothing busy or new is left.
    await Promise.all(flood.map(closed));
    expect(guarded.guard.open("127.0.0.1")).toBe(0);
    expect(guarded.warnings.at(-1)?.closedIdle).toBeGreaterThanOrEqual(11);

    // Pressure gone: the staff member's next request opens a connection and is answered.
    expect(await get(guarded.port, staff, "/", agent)).toMatchObject({
      status: 200,
      reused: false,
    });
  });

  it("closes them on its own timer, with the real clock", async () => {
    const guarded = await guardedServer(
      {
        maxPerAddress: 100,
        maxTotal: 100,
        pressureAt: 3,
        idleUnderPressureMs: 100,
      },
      true,
    );
    const flood: Socket[] = [];
    for (let i = 0; i < 3; i++)
      flood.push(await idleSocket(guarded.port, "127.0.0.1"));
    // No sweep is called: the longest idle goes on the guard's own timer. The others may go
    // too, or stay once the pressure is gone (on a busy machine they opened later), so only
    // the first is certain.
    await closed(flood[0]!);
    expect(guarded.guard.open()).toBeLessThan(3);
  });
});
