import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  type PointInTime,
  PROBLEM_CONTENT_TYPE,
  RETRY_AFTER_HEADER,
} from "@vics/shared";
import { routeTemplate } from "@vics/server-kit/access-log";
import type { Logger } from "@vics/server-kit/logger";
import type { ProblemError } from "@vics/server-kit/problem-error";
import { startClientCall } from "@vics/server-kit/tracing";
import type { AppContext } from "../http/app-env.ts";
import {
  browserResponseHeaders,
  upstreamRequestHeaders,
} from "./header-allowlists.ts";
import { PROXY_PROBLEMS } from "../http/problem.ts";
import {
  callUpstream,
  type UpstreamReply,
  type UpstreamSend,
} from "../upstream/upstream-call.ts";
import {
  type Asked,
  readAnswer,
  readProblem,
} from "../upstream/upstream-contract.ts";
import type { Forwarded, UpstreamOperation } from "./operation.ts";

export interface ForwardOptions {
  upstreamUrl: string;
  /** Asked on every request: the key may be reloaded (SIGHUP). */
  currentKey: () => string;
  send: UpstreamSend;
  timeoutMs: number;
  logger: Logger;
}

/**
 * What to ask the upstream for: a GET, or a POST with the JSON the proxy validated; and the
 * registrations its answer must be about.
 */
export interface UpstreamRequest extends Asked {
  /** The service's path. */
  path: string;
  /**
   * The service's route template (/v1/compliance/:registration): what a trace's client span
   * shows instead of the path, which can hold a plate. Absent: the span shows no path at all.
   */
  route?: string;
  /** A JSON body makes the request a POST. */
  json?: string;
}

/**
 * Asks the upstream for `operation` and hands back its answer with the 200's parsed JSON; or
 * it throws the proxy's own problem (a 502 or 504).
 */
export type Forward = <Answer>(
  c: AppContext,
  operation: UpstreamOperation<Answer>,
  upstream: UpstreamRequest,
) => Promise<Forwarded<Answer>>;

const CONTRACT_MEDIA_TYPES = new Set([
  "application/json",
  PROBLEM_CONTENT_TYPE,
]);

/** What goes back: the upstream's body, or the proxy's own problem and why (for the log). */
type Judged =
  | { pass: string; json: unknown }
  | { refuse: () => ProblemError; log: string; reason: string };

const outsideContract = (reason: string): Judged => ({
  refuse: PROXY_PROBLEMS.upstreamInvalid,
  log: "upstream answer outside the contract",
  reason,
});

/**
 * Decision 017. The service answers 200 or a problem document with a status of its own
 * (400, 401, 404, 405, 413, 429, 500, and a 503 SOURCE_UNAVAILABLE to retry), JSON either
 * way, never a redirect.
 * Any other 502, 503 or 504 comes from something in front of it, and becomes the proxy's own
 * problem; anything else outside that, or a 200 the shared schemas refuse, is a 502.
 *
 * The service's own 503 to retry is its problem document, SOURCE_UNAVAILABLE, with Retry-After
 * (a live register down for a vehicle it never saw, decision 059). Passed on as it is: the
 * client can retry it, and its words say which register and why. Only that code: nginx's own
 * 503 page and the service's database-down 503 are SERVICE_UNAVAILABLE problems with
 * Retry-After too, and stay the proxy's 502 (decision 017).
 */
function judgeAnswer(
  answer: UpstreamReply,
  operation: UpstreamOperation,
  asked: Asked,
): Judged {
  const { status, headers, body } = answer;
  if (status === 504)
    return {
      refuse: PROXY_PROBLEMS.upstreamTimeout,
      log: "upstream answered 504",
      reason: "gateway timeout upstream",
    };
  const unavailable = (why?: string): Judged => ({
    refuse: PROXY_PROBLEMS.upstreamUnavailable,
    log: "upstream unavailable",
    reason: why === undefined ? `status ${status}` : `status ${status}: ${why}`,
  });
  if (status === 502 || (status === 503 && !headers.get(RETRY_AFTER_HEADER)))
    return unavailable();
  // Past here a 503 may be the service's own to retry; when it is not, it is unavailable.
  const refuse = (reason: string) =>
    status === 503 ? unavailable(reason) : outsideContract(reason);
  if (status !== 200 && status !== 503 && (status < 400 || status > 500))
    return outsideContract(`status ${status}`);
  const mediaType = headers.get("Content-Type")?.split(";")[0]?.trim();
  if (!mediaType || !CONTRACT_MEDIA_TYPES.has(mediaType.toLowerCase()))
    return refuse("not JSON");
  // Passed on as this text: Node writes a string answer and its headers in one write, an
  // ArrayBuffer in two (docs/performance.md).
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return refuse("broken JSON");
  }
  if (status !== 200) {
    const read = readProblem(json, status);
    if ("breach" in read) return refuse(read.breach);
    if (status === 503 && read.problem.code !== "SOURCE_UNAVAILABLE")
      return unavailable(read.problem.code);
    return { pass: body, json: undefined };
  }
  if (operation.answer) {
    const read = readAnswer(json, operation.answer, asked);
    if ("breach" in read) return outsideContract(read.breach);
    json = read.answer;
  }
  if (!operation.rewrite) return { pass: body, json };
  const rewritten = operation.rewrite(json);
  return rewritten === undefined
    ? outsideContract("not an OpenAPI document")
    : { pass: JSON.stringify(rewritten), json: rewritten };
}

/** A single check's point in time as its query string: validated values only, never the browser's. */
function queryString(pointInTime: PointInTime | undefined): string {
  if (!pointInTime?.date && !pointInTime?.asKnownAt) return "";
  const query = new URLSearchParams();
  if (pointInTime.date) query.set("date", pointInTime.date);
  if (pointInTime.asKnownAt) query.set("asKnownAt", pointInTime.asKnownAt);
  const text = query.toString();
  return text === "" ? "" : `?${text}`;
}

/**
 * A logged line's context. The route's template, not the path: the path holds a registration
 * number. Worked out only for a line that is logged: it walks every handler the request matched.
 */
const logContext = (c: AppContext) => ({
  requestId: c.get("requestId"),
  route: routeTemplate(c),
});

export function createForwarder(options: ForwardOptions): Forward {
  const base = options.upstreamUrl.replace(/\/+$/, "");
  const { logger } = options;

  return async <Answer>(
    c: AppContext,
    operation: UpstreamOperation<Answer>,
    asked: UpstreamRequest,
  ): Promise<Forwarded<Answer>> => {
    const { path, json } = asked;
    const requestId = c.get("requestId");
    const method = json === undefined ? "GET" : "POST";
    // A span of its own when traced; else the browser's traceparent passed on, when valid.
    const traced = startClientCall(method, base, asked.route, c.req.raw);
    const outcome = await callUpstream(
      options.send,
      base + path + queryString(asked.pointInTime),
      {
        method,
        headers: upstreamRequestHeaders(
          options.currentKey(),
          requestId,
          json !== undefined,
          traced.traceparent,
        ),
        body: json,
      },
      options.timeoutMs,
    );
    traced.end(outcome.kind === "answer" ? outcome.status : undefined);
    if (outcome.kind === "timeout") {
      logger.warn("upstream timed out", {
        ...logContext(c),
        timeoutMs: options.timeoutMs,
      });
      throw PROXY_PROBLEMS.upstreamTimeout();
    }
    if (outcome.kind === "unreachable") {
      logger.warn("upstream unreachable", {
        ...logContext(c),
        reason: outcome.reason,
      });
      throw PROXY_PROBLEMS.upstreamUnreachable();
    }
    const { status, headers } = outcome;
    const judged = judgeAnswer(outcome, operation as UpstreamOperation, asked);
    if ("refuse" in judged) {
      logger.warn(judged.log, {
        ...logContext(c),
        status,
        contentType: headers.get("Content-Type") ?? "none",
        reason: judged.reason,
      });
      throw judged.refuse();
    }
    if (status === 401) {
      logger.warn(
        "the vehicle service rejected the proxy's API key: check UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE",
        logContext(c),
      );
    }
    const passed = browserResponseHeaders(headers);
    passed["cache-control"] = "no-store";
    // The JSON as the operation's contract parsed it: the stages above read it, never parse again.
    return {
      response: c.body(judged.pass, status as ContentfulStatusCode, passed),
      answer: judged.json as Answer | undefined,
    };
  };
}
