// Starts the careful BFF (careful-bff-server.ts) as one of the bench's children, on a free
// loopback port, in front of `upstreamUrl` with `key`. With `sessions`, it makes a session for a
// token made here, and the Cookie header that carries it comes back with the child.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";
import { startChild, type Child } from "../../scripts/load/children.ts";
import { ROOT } from "../servers.ts";
import { SESSION_COOKIE } from "./careful-bff-headers.ts";

export interface CarefulBffOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3001. */
  upstreamUrl: string;
  /** The BFF's API key for the service; it goes upstream only. */
  key: string;
  /** Sign-in's costs: sessions and the audit in this SQLite file (made when missing). */
  sessions?: { databasePath: string };
  /** undici's headers and body timeouts; default 10 s, the proxy's UPSTREAM_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Added to its environment, e.g. NODE_OPTIONS for a CPU profile. */
  extraEnv?: Record<string, string>;
}

export interface CarefulBff extends Child {
  /** With sessions: the Cookie header of its one live session (`vics_session=<token>`). */
  cookie?: string;
}

export async function startCarefulBff(
  options: CarefulBffOptions,
): Promise<CarefulBff> {
  const port = await freePort();
  const token = randomBytes(32).toString("base64url");
  const child = await startChild({
    label: "careful BFF",
    command: process.execPath,
    args: [join(ROOT, "bench/floors/careful-bff-server.ts")],
    cwd: ROOT,
    port,
    // Any answer means it listens: Hono's own 404 here.
    readyPath: "/",
    env: {
      PORT: String(port),
      BFF_UPSTREAM_URL: options.upstreamUrl,
      BFF_API_KEY: options.key,
      BFF_TIMEOUT_MS: String(options.timeoutMs ?? 10_000),
      BFF_SESSIONS_DATABASE: options.sessions?.databasePath ?? "",
      BFF_SESSION_TOKEN: options.sessions ? token : "",
      ...options.extraEnv,
    },
  });
  return options.sessions
    ? { ...child, cookie: `${SESSION_COOKIE}=${token}` }
    : child;
}
