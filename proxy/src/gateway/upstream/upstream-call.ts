/** One timed call to the vehicle service, reduced to what the proxy decides on. */
import { socketErrorCode } from "@vics/server-kit/socket-errors";

export type UpstreamFetch = (
  input: string,
  init: RequestInit,
) => Response | Promise<Response>;

/**
 * What the proxy sends upstream: its method, allowlisted headers (names in lower case), and a
 * JSON body or none.
 */
export interface UpstreamInit {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** What the proxy reads of an answer's headers: a Headers object, or the pool's lighter reader. */
export type ReplyHeaders = Pick<Headers, "get">;

/** A whole upstream answer, its body read and decoded as UTF-8. */
export interface UpstreamReply {
  status: number;
  headers: ReplyHeaders;
  body: string;
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
    const body = await response.text();
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

const TIMED_OUT: UpstreamOutcome = { kind: "timeout" };

/**
 * Calls the upstream and reads the whole body within `timeoutMs`. On time-out the
 * request is aborted, so the socket is released, and the caller gets "timeout" even
 * if a fetch ignores its signal. One timer and one promise per call: whichever of the timer
 * and the answer comes first settles it, and the other is then ignored (a late AbortError
 * included).
 */
export function callUpstream(
  send: UpstreamSend,
  url: string,
  init: Omit<UpstreamInit, "signal">,
  timeoutMs: number,
): Promise<UpstreamOutcome> {
  const controller = new AbortController();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      controller.abort();
      resolve(TIMED_OUT);
    }, timeoutMs);
    let answer: Promise<UpstreamReply>;
    try {
      answer = send(url, { ...init, signal: controller.signal });
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (reply) => {
        clearTimeout(timer);
        resolve({ kind: "answer", ...reply });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve(
          controller.signal.aborted
            ? TIMED_OUT
            : { kind: "unreachable", reason: describeFailure(error) },
        );
      },
    );
  });
}
