/** One timed call to the vehicle service, reduced to what the proxy decides on. */
import { socketErrorCode } from "@vics/shared/server/socket-errors";

export type UpstreamFetch = (
  input: string,
  init: RequestInit,
) => Response | Promise<Response>;

/** What the proxy sends upstream: its method, allowlisted headers, and a JSON body or none. */
export interface UpstreamInit {
  method: "GET" | "POST";
  headers: Headers;
  body?: string;
  signal: AbortSignal;
}

/** A whole upstream answer, body read. */
export interface UpstreamReply {
  status: number;
  headers: Headers;
  body: ArrayBuffer;
}

/**
 * How the proxy reaches the upstream: an undici pool in production (upstream-pool.ts), or
 * any fetch (the service's app, a fake) through sendWithFetch in tests. Rejects when the
 * connection fails or the signal aborts; never follows a redirect.
 */
export type UpstreamSend = (
  url: string,
  init: UpstreamInit,
) => Promise<UpstreamReply>;

/** An UpstreamSend over a fetch: the whole body read, redirects not followed. */
export function sendWithFetch(fetch: UpstreamFetch): UpstreamSend {
  return async (url, init) => {
    // A redirect would carry the key to wherever it points; the service never sends one.
    const response = await fetch(url, { ...init, redirect: "manual" });
    const body = await response.arrayBuffer();
    return { status: response.status, headers: response.headers, body };
  };
}

export type UpstreamOutcome =
  | ({ kind: "answer" } & UpstreamReply)
  | { kind: "timeout" }
  | { kind: "unreachable"; reason: string };

const describeFailure = (error: unknown): string =>
  socketErrorCode(error) ??
  (error instanceof Error ? error.message : String(error));

/**
 * Calls the upstream and reads the whole body within `timeoutMs`. On time-out the
 * request is aborted, so the socket is released, and the caller gets "timeout" even
 * if a fetch ignores its signal.
 */
export async function callUpstream(
  send: UpstreamSend,
  url: string,
  init: Omit<UpstreamInit, "signal">,
  timeoutMs: number,
): Promise<UpstreamOutcome> {
  const controller = new AbortController();
  const timedOut = new Promise<"timeout">((resolve) =>
    controller.signal.addEventListener("abort", () => resolve("timeout")),
  );
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const answer = send(url, { ...init, signal: controller.signal });
  try {
    const first = await Promise.race([answer, timedOut]);
    if (first === "timeout") {
      answer.catch(() => {}); // its AbortError is expected now
      return { kind: "timeout" };
    }
    return { kind: "answer", ...first };
  } catch (error) {
    if (controller.signal.aborted) return { kind: "timeout" };
    return { kind: "unreachable", reason: describeFailure(error) };
  } finally {
    clearTimeout(timer);
  }
}
