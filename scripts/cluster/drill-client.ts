// The fault drills' client: staff signed in through the cluster's https URL (trusting its
// certificate), and a steady load of checks whose every answer is counted, timed and kept.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import { promisify } from "node:util";
import {
  AUTH_PATHS,
  CLIENT_HEADER,
  PROXY_PREFIX,
  paths,
  type Role,
} from "@vics/shared";
import { closedUnderRequest } from "@vics/server-kit/socket-errors";
import { ROOT, type Cluster } from "./start-cluster.ts";

/** Longer than any answer may take: a request past it is a hang, and fails the drill. */
export const HANG_MS = 20_000;

export interface DrillClient {
  /** A fetch to the cluster's https URL that trusts its certificate. */
  fetch(
    path: string,
    init?: RequestInit & { cookie?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Node's own fetch, trusting the cluster's certificate. Not the npm undici's (8.12): over TLS it
 * loses the body of the last answer on a connection the server closes after it (nginx's
 * `Connection: close` at keepalive_requests, one answer in a thousand); Node's (undici 7) and
 * curl read it whole.
 */
export function drillClient(
  cluster: Pick<Cluster, "url" | "certificate">,
): DrillClient {
  const before = getCACertificates("default");
  setDefaultCACertificates([
    ...before,
    readFileSync(cluster.certificate, "utf8"),
  ]);
  const send = (
    path: string,
    init: RequestInit & { cookie?: string },
    signal: AbortSignal,
  ) => {
    const { cookie, ...rest } = init;
    return fetch(new URL(path, cluster.url), {
      ...rest,
      headers: {
        [CLIENT_HEADER]: "drill",
        ...(cookie && { Cookie: cookie }),
        ...(rest.headers as Record<string, string> | undefined),
      },
      signal,
    });
  };
  return {
    // As a browser does (RFC 9110 9.2.2): a GET whose kept-alive connection was closed under
    // it before any answer (nginx's reload closes its idle ones) is sent once more, within the
    // same HANG_MS. Never a POST, and never once an answer has begun, whatever its status.
    async fetch(path, init = {}) {
      const signal = AbortSignal.timeout(HANG_MS);
      try {
        return await send(path, init, signal);
      } catch (error) {
        if ((init.method ?? "GET") !== "GET" || !closedUnderRequest(error))
          throw error;
        return send(path, init, signal);
      }
    },
    // The process trusts what it trusted before.
    close: async () => setDefaultCACertificates(before),
  };
}

/** `scripts/users` against the cluster's proxy store; its stdout. */
export async function clusterUsers(
  cluster: Cluster,
  ...args: string[]
): Promise<string> {
  const { stdout } = await promisify(execFile)(
    join(ROOT, "scripts/users"),
    args,
    {
      env: { PATH: process.env.PATH ?? "", ...cluster.proxyEnv },
    },
  );
  return stdout;
}

/** A new user of `role`, password set through their invitation; their Cookie header. */
export async function signedInUser(
  cluster: Cluster,
  client: DrillClient,
  role: Role,
): Promise<{ email: string; cookie: string }> {
  const email = `drill-${role}-${randomBytes(4).toString("hex")}@example.org`;
  const output = await clusterUsers(
    cluster,
    "create",
    "--email",
    email,
    "--role",
    role,
  );
  const token = /#token=([A-Za-z0-9_-]{43})/.exec(output)?.[1];
  if (!token) throw new Error(`no link in: ${output}`);
  const response = await client.fetch(AUTH_PATHS.setPassword, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      token,
      password: `drill ${randomBytes(12).toString("hex")}`,
    }),
  });
  if (response.status !== 200)
    throw new Error(
      `set-password: ${response.status} ${await response.text()}`,
    );
  const [pair] = (response.headers.get("Set-Cookie") ?? "").split(";");
  return { email, cookie: pair! };
}

export interface Answer {
  status: number;
  requestId: string | null;
  retryAfter: string | null;
  /** "ok", "hang" (no answer within HANG_MS) or "network" (the connection failed). */
  outcome: "ok" | "hang" | "network";
  /** What failed, for a "network" outcome. */
  error?: string;
  at: number;
}

export interface Load {
  answers: Answer[];
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<Answer[]>;
}

/**
 * `concurrency` loops, each checking one registration after another (a staff member's single
 * check, GET through the proxy) until stopped.
 */
export function startLoad(
  client: DrillClient,
  options: {
    cookie: string;
    registrations: readonly string[];
    concurrency: number;
  },
): Load {
  const answers: Answer[] = [];
  let running = true;
  let next = 0;
  const loop = async () => {
    while (running) {
      const registration =
        options.registrations[next++ % options.registrations.length]!;
      const at = Date.now();
      try {
        const response = await client.fetch(
          PROXY_PREFIX + paths.insurance(registration),
          { cookie: options.cookie },
        );
        await response.arrayBuffer();
        answers.push({
          status: response.status,
          requestId: response.headers.get("X-Request-Id"),
          retryAfter: response.headers.get("Retry-After"),
          outcome: "ok",
          at,
        });
      } catch (error) {
        const hang = error instanceof Error && error.name === "TimeoutError";
        const cause = error instanceof Error ? error.cause : undefined;
        answers.push({
          status: 0,
          requestId: null,
          retryAfter: null,
          outcome: hang ? "hang" : "network",
          error: `${String(error)} ${cause instanceof Error ? cause.message : ""}`,
          at,
        });
      }
    }
  };
  const loops = Array.from({ length: options.concurrency }, loop);
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
      return answers;
    },
  };
}

/** How many answers had each status ("hang" and "network" for the failures). */
export function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    // A failure names its cause, so a drill that fails says what went wrong.
    const key =
      answer.outcome === "ok"
        ? String(answer.status)
        : `${answer.outcome}${answer.error ? `: ${answer.error}` : ""}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
