// The attacks of the memory experiment (scripts/memory-after-attack.ts), each bounded in count,
// all on loopback: idle sockets, oversized headers, wrong keys and oversized bodies, sent the
// way the reliability tests and the attack scripts sent them. Every request is on a connection
// of its own, from a loopback address picked per request (localAddress 127.0.x.y).
import { once } from "node:events";
import { type IncomingMessage, request } from "node:http";
import { connect, type Socket } from "node:net";
import { API_KEY_HEADER, CLIENT_HEADER } from "@vics/shared";

/** Runs `task(0)` … `task(count - 1)`, at most `concurrency` at a time. */
export async function inParallel(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Written with a Content-Length, or in chunks without one. */
  body?: Buffer;
  chunked?: boolean;
  from: string;
}

/** The status, or "error" when the server cut the connection (as it may, at a limit). */
export function send(base: string, sent: Sent): Promise<number | "error"> {
  return new Promise((resolve) => {
    const url = new URL(sent.path, base);
    const outgoing = request(url, {
      method: sent.method ?? "GET",
      localAddress: sent.from,
      agent: false,
      headers: {
        ...sent.headers,
        ...(sent.body &&
          !sent.chunked && { "Content-Length": String(sent.body.length) }),
      },
    });
    outgoing.setTimeout(30_000, () => outgoing.destroy());
    outgoing.on("response", (response: IncomingMessage) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", () => resolve("error"));
    });
    outgoing.on("error", () => resolve("error"));
    if (!sent.body) return void outgoing.end();
    if (!sent.chunked) return void outgoing.end(sent.body);
    // 64 KiB at a time, as a client streaming a big file.
    for (let at = 0; at < sent.body.length; at += 65_536)
      outgoing.write(sent.body.subarray(at, at + 65_536));
    outgoing.end();
  });
}

/** A loopback address of its own for request `i` among `spread` addresses. */
export const fromAddress = (i: number, spread: number, subnet = 1) =>
  `127.0.${subnet}.${(i % spread) + 1}`;

/**
 * Opens `count` connections that send nothing, `perAddress` from each loopback address, holds
 * them for `holdMs`, then closes them. Returns how many the server closed first.
 */
export async function idleFlood(
  port: number,
  count: number,
  perAddress: number,
  holdMs: number,
): Promise<{ opened: number; closedByServer: number }> {
  const sockets: Socket[] = [];
  let closedByServer = 0;
  let closing = false;
  await inParallel(count, 200, async (i) => {
    const socket = connect({
      host: "127.0.0.1",
      port,
      localAddress: `127.0.3.${Math.floor(i / perAddress) + 1}`,
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      if (!closing) closedByServer++;
    });
    sockets.push(socket);
    await Promise.race([once(socket, "connect"), once(socket, "close")]);
  });
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  closing = true;
  for (const socket of sockets) socket.destroy();
  return { opened: sockets.length, closedByServer };
}

/** About `kib` KiB of extra headers, under Node's 16 KiB limit for the whole head. */
export function bigHeaders(kib: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < kib; i++) headers[`X-Padding-${i}`] = "p".repeat(1000);
  return headers;
}

export interface Counts {
  [status: string]: number;
}

const count = (counts: Counts, status: number | "error") => {
  counts[status] = (counts[status] ?? 0) + 1;
};

/**
 * Checks through the proxy with ~15 KiB of headers each: with a session `cookie` the proxy
 * forwards them (after its session lookup and audit write); without one it answers 401.
 */
export async function bigHeaderChecks(
  proxyUrl: string,
  requests: number,
  cookie?: string,
): Promise<Counts> {
  const counts: Counts = {};
  const headers = {
    // With the cookie's 66 bytes too, the head stays under Node's 16 KiB limit.
    ...bigHeaders(15),
    ...(cookie !== undefined && { Cookie: cookie }),
    [CLIENT_HEADER]: "memory-experiment",
    Accept: `application/json, ${"text/x-long;q=0.1, ".repeat(30)}`,
  };
  await inParallel(requests, 50, async (i) =>
    count(
      counts,
      await send(proxyUrl, {
        path: "/api/v1/compliance/AB12CDE",
        headers,
        from: fromAddress(i, 50),
      }),
    ),
  );
  return counts;
}

/** Wrong keys straight to the service, with ~8 KiB of headers, from 50 addresses. */
export async function wrongKeys(
  serviceUrl: string,
  requests: number,
): Promise<Counts> {
  const counts: Counts = {};
  const padding = bigHeaders(8);
  await inParallel(requests, 50, async (i) =>
    count(
      counts,
      await send(serviceUrl, {
        path: "/v1/vehicle/AB12CDE/insurance",
        headers: {
          ...padding,
          [API_KEY_HEADER]: `vics_wrong_${i}_${"x".repeat(36)}`,
        },
        from: fromAddress(i, 50, 2),
      }),
    ),
  );
  return counts;
}

/** Bulk bodies of `mib` MiB, half declared and half chunked, to `base` (proxy or service). */
export async function bigBodies(
  base: string,
  path: string,
  requests: number,
  mib: number,
  headers: Record<string, string>,
): Promise<Counts> {
  const counts: Counts = {};
  const body = Buffer.alloc(mib * 1024 * 1024, "[");
  await inParallel(requests, 20, async (i) =>
    count(
      counts,
      await send(base, {
        method: "POST",
        path,
        headers: { "Content-Type": "application/json", ...headers },
        body,
        chunked: i % 2 === 1,
        from: fromAddress(i, 50, 4),
      }),
    ),
  );
  return counts;
}
