import { createHash } from "node:crypto";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { REQUEST_ID_HEADER } from "@vics/shared";
import type { AppContext } from "../../http/app-env.ts";
import { browserResponseHeaders } from "../header-allowlists.ts";
import { PROXY_PROBLEMS } from "../../http/problem.ts";
import type { KeptAnswer, ReplayCache } from "./replay-cache.ts";

/** Decision 028: a bulk request sent again with the same key and body is answered from memory. */

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "X-VICS-Replayed";

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export const INVALID_KEY_DETAIL = `The ${IDEMPOTENCY_KEY_HEADER} header must be 8 to 128 letters, digits, hyphens or underscores. Send the request again with such a key, or without the header.`;

/**
 * The header's key, undefined when none, or the proxy's own 400 (an edge check, decision
 * 018: it costs the service nothing).
 */
export function idempotencyKey(c: AppContext): string | undefined {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (key !== undefined && !KEY_PATTERN.test(key))
    throw PROXY_PROBLEMS.malformedRequest(INVALID_KEY_DETAIL);
  return key;
}

const sha256 = (text: string) =>
  createHash("sha256").update(text).digest("base64url");

function reply(c: AppContext, answer: KeptAnswer, replayed: boolean) {
  const headers = Object.fromEntries(answer.headers);
  if (replayed) headers[REPLAYED_HEADER] = "true";
  headers["Cache-Control"] = "no-store";
  return c.body(answer.body, answer.status as ContentfulStatusCode, headers);
}

async function keep(response: Response): Promise<KeptAnswer> {
  const headers = browserResponseHeaders(response.headers);
  // The request id is the new request's own, set by its middleware.
  delete headers[REQUEST_ID_HEADER.toLowerCase()];
  return {
    status: response.status,
    headers: Object.entries(headers),
    body: await response.text(),
  };
}

export interface IdempotentReplay {
  /**
   * Answers from the cache when this path, key and body were answered 200 before; joins the
   * same request still in flight; otherwise calls `ask` and keeps a 200. `ask` runs to its end
   * even when the browser has gone: the answer is kept for the request sent again.
   */
  answer(
    c: AppContext,
    request: { path: string; key: string; json: string },
    ask: () => Promise<Response>,
  ): Promise<Response>;
}

export function idempotentReplay(cache: ReplayCache): IdempotentReplay {
  const inFlight = new Map<string, Promise<KeptAnswer | Response>>();
  return {
    async answer(c, { path, key, json }, ask) {
      // The body's hash is part of the key: the same key with another body is a new request.
      const cacheKey = `${path} ${key} ${sha256(json)}`;
      const kept = cache.get(cacheKey);
      if (kept) return reply(c, kept, true);
      const pending = inFlight.get(cacheKey);
      if (pending) {
        const joined = await pending.catch(() => undefined);
        // The first one got no 200: this one asks for itself.
        if (joined && !(joined instanceof Response))
          return reply(c, joined, true);
      }
      const asking = ask().then(async (response) => {
        if (response.status !== 200) return response;
        const answer = await keep(response);
        cache.set(cacheKey, answer);
        return answer;
      });
      inFlight.set(cacheKey, asking);
      try {
        const result = await asking;
        return result instanceof Response ? result : reply(c, result, false);
      } finally {
        if (inFlight.get(cacheKey) === asking) inFlight.delete(cacheKey);
      }
    },
  };
}
