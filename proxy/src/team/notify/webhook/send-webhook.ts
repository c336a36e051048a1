// Sends one webhook delivery and says how it went, for the delivery queue to record and retry.
// The URL is checked first (webhook-address.ts) and the connection goes only to the addresses
// that were checked; the request is signed (webhook-signing.ts), has a deadline, follows no
// redirect and reads nothing of a failed answer, because the endpoint is someone else's server
// and may be slow, hostile or gone. It never throws: every way a delivery can fail is an answer
// with `ok: false`, the status, and the reason in the proxy's own words. Nothing the endpoint
// sent (body, status text, Location) is quoted: the delivery log would carry it to every admin,
// and an endpoint on a private address could use it to read out what it knows.
import { socketErrorCode } from "@vics/server-kit/socket-errors";
import { Agent, request } from "undici";
import { pinnedLookup } from "./pinned-lookup.ts";
import { type Lookup, checkWebhookUrl } from "./webhook-address.ts";
import { signedHeaders } from "./webhook-signing.ts";

/** How long a delivery may take, lookup to answer, unless told otherwise. */
const DEFAULT_TIMEOUT_MS = 10_000;
const USER_AGENT = "VICS-Webhooks/1";

export interface SendWebhookOptions {
  url: string;
  /** Let the URL reach loopback and private addresses: only where an admin allowed it. */
  allowPrivate: boolean;
  /** The message's id, the same on every retry of it. */
  id: string;
  /** This attempt's time. */
  timestamp: Date;
  /** The JSON sent, exactly as signed. */
  body: string;
  /** The endpoint's secrets, `whsec_...`: the new and the old one during a rotation. */
  secrets: string[];
  timeoutMs?: number;
  /** Resolves the URL's host; DNS unless a test gives another. */
  lookup?: Lookup;
}

/** How one delivery went. `status` is null when no answer came; `error` is null when `ok`. */
export interface WebhookAttempt {
  ok: boolean;
  status: number | null;
  error: string | null;
  ms: number;
}

export async function sendWebhook(
  options: SendWebhookOptions,
): Promise<WebhookAttempt> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const attempt = (
    status: number | null,
    error: string | null,
  ): WebhookAttempt => ({
    ok: error === null,
    status,
    error,
    ms: Math.round(performance.now() - started),
  });

  let headers: ReturnType<typeof signedHeaders>;
  try {
    headers = signedHeaders(options);
  } catch (error) {
    return attempt(
      null,
      `The delivery could not be signed: ${(error as Error).message}`,
    );
  }

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  let phase: "looking up" | "sending" = "looking up";
  let agent: Agent | undefined;
  try {
    const check = await beforeDeadline(
      checkWebhookUrl(options.url, {
        allowPrivate: options.allowPrivate,
        lookup: options.lookup,
      }),
      deadline.signal,
    );
    if (!check.ok) return attempt(null, check.reason);
    phase = "sending";
    agent = new Agent({
      connect: { lookup: pinnedLookup(check.addresses), timeout: timeoutMs },
    });
    // undici's request follows no redirect unless a redirect interceptor is added.
    const answer = await request(check.url, {
      method: "POST",
      dispatcher: agent,
      signal: deadline.signal,
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        ...headers,
      },
      body: options.body,
    });
    const status = answer.statusCode;
    // Whatever the answer says is not wanted: the agent is destroyed below, body and all.
    if (status >= 200 && status <= 299) return attempt(status, null);
    if (status >= 300 && status <= 399) {
      return attempt(
        status,
        `The endpoint answered ${status}, a redirect; webhooks do not follow redirects, so set the webhook's URL to the address it redirects to.`,
      );
    }
    return attempt(
      status,
      `The endpoint answered ${status}, not a 2xx success: ${statusWords(status)}.`,
    );
  } catch (error) {
    if (deadline.signal.aborted) {
      const what =
        phase === "looking up"
          ? "The webhook's host was not found"
          : "No answer came";
      return attempt(
        null,
        `${what} within ${timeoutMs / 1000} s, so the delivery gave up.`,
      );
    }
    return attempt(null, `The delivery failed: ${failureWords(error)}.`);
  } finally {
    clearTimeout(timer);
    // Nothing more is wanted from this endpoint: whatever is still open is dropped.
    await agent?.destroy().catch(() => undefined);
  }
}

/** `work`, or a rejection as soon as `signal` aborts (a DNS lookup cannot be cancelled). */
function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error("The deadline passed."));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work
      .then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const STATUS_WORDS: Record<number, string> = {
  400: "it refused the delivery as malformed",
  401: "it refused the delivery's signature or credentials",
  403: "it refused the delivery's signature or credentials",
  404: "nothing is at that URL",
  410: "nothing is at that URL",
  413: "the delivery was too large for it",
  429: "it is too busy, or limits how often it is sent to",
};

/** What an error status means, in our words. */
function statusWords(status: number): string {
  return (
    STATUS_WORDS[status] ??
    (status >= 500 ? "a failure at its end" : "it refused the delivery")
  );
}

const CODE_WORDS: Record<string, string> = {
  ECONNREFUSED: "the endpoint refused the connection",
  ECONNRESET: "the endpoint closed the connection",
  UND_ERR_SOCKET: "the endpoint closed the connection",
  EHOSTUNREACH: "the endpoint's host could not be reached",
  ENETUNREACH: "the endpoint's network could not be reached",
  UND_ERR_CONNECT_TIMEOUT: "the connection took too long",
};

/** A connection or protocol error in words, with its code. */
function failureWords(error: unknown): string {
  // When Node tries IPv6 and IPv4 side by side and both fail, it gives an AggregateError.
  const first =
    error instanceof AggregateError && socketErrorCode(error) === undefined
      ? error.errors[0]
      : error;
  const code = socketErrorCode(first);
  const message = first instanceof Error ? first.message : String(first);
  const words = (code && CODE_WORDS[code]) || message;
  return code ? `${words} (${code})` : words;
}
