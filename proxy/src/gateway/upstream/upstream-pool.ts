import { Pool } from "undici";
import { closedUnderRequest } from "@vics/server-kit/socket-errors";
import type { IncomingHttpHeaders } from "node:http";
import type { ReplyHeaders, UpstreamSend } from "./upstream-call.ts";

/** Connections kept open to the service: the bench's 64 clients, and room beside them. */
const CONNECTIONS = 128;

/**
 * A kept-alive connection can be closed by the other side (nginx reloading, a replica
 * draining) just as a request goes out on it. A GET whose request fails that way, before its
 * headers are complete, is sent once more, at once, on whichever connection the pool gives: a
 * GET has no effect to repeat. A POST never is, nor an answer whose headers came (its failure
 * goes to the body), nor an aborted request (undici refuses an aborted signal at once). undici's
 * retry interceptor is not used: it resumes a cut body with a Range request, which the service
 * does not serve. Decision 039.
 */
const resendable = (error: unknown, method: string): boolean =>
  method === "GET" && closedUnderRequest(error);

/** undici's counts of a pool's requests (running, pending, queued) and connections. */
export type UpstreamPoolStats = Pick<
  Pool["stats"],
  "running" | "pending" | "queued" | "connected" | "free"
>;

/**
 * An answer's headers as undici parsed them (names in lower case), read as Headers#get reads
 * them: a repeated header's values joined with ", ", null when absent. No Headers object is
 * built for each answer.
 */
export function replyHeaders(raw: IncomingHttpHeaders): ReplyHeaders {
  return {
    get(name) {
      const value = raw[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/**
 * The production way to the upstream: an undici Pool of keep-alive connections, called with
 * `request` rather than fetch. fetch builds a Request, a Response and their streams for every
 * call, which was a quarter of the proxy's time under load (docs/performance.md). Like the
 * fetch it replaces, it follows no redirect and rejects on a connection error or an abort.
 */
export function createUpstreamPool(upstreamUrl: string): {
  send: UpstreamSend;
  /** The pool's requests and connections now, read by the metrics at scrape time. */
  stats(): UpstreamPoolStats;
  close(): Promise<void>;
} {
  const { origin } = new URL(upstreamUrl);
  const pool = new Pool(origin, { connections: CONNECTIONS });
  // The forwarder's URLs start with the upstream's own: their path is the rest, with no URL
  // parsed per request. Anything else is parsed.
  const pathOf = (url: string) => {
    if (url.startsWith(origin) && url.charCodeAt(origin.length) === 47)
      return url.slice(origin.length);
    const target = new URL(url);
    return target.pathname + target.search;
  };
  const send: UpstreamSend = async (url, init) => {
    const options = {
      path: pathOf(url),
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: init.signal,
    };
    const answer = await pool.request(options).catch((error: unknown) => {
      if (!resendable(error, init.method)) throw error;
      return pool.request(options);
    });
    return {
      status: answer.statusCode,
      headers: replyHeaders(answer.headers),
      body: await answer.body.text(),
    };
  };
  // At shutdown, after the proxy's own connections are done or cut: whatever is still open
  // upstream has nobody to answer, so it is dropped, not waited for.
  return { send, stats: () => pool.stats, close: () => pool.destroy() };
}
