// The DVLA Vehicle Enquiry Service (VES): one POST per vehicle, answering its tax, its MOT expiry
// and a few vehicle details (docs/sources.md). Built against DVLA's published OpenAPI document,
// version 1.1.0, which the tests run through Prism; dates are read as the register sends them
// (YYYY-MM-DD, months YYYY-MM), not as that document's examples show them (date-times).
// The API key goes into the x-api-key header and nowhere else: no message, no log line.
import { normaliseRegistration } from "@vics/shared";
import { z } from "zod";
import { factsOf, VesVehicleSchema } from "./dvla-ves-vehicle.ts";
import {
  type LiveSource,
  retryAfterMs,
  SourceError,
  type SourceErrorKind,
} from "./source.ts";

const DEFAULT_TIMEOUT_MS = 5000;
/** The most of a provider's own words that goes into a message. */
const WORDS_MAX = 200;

const ErrorItem = z.object({
  title: z.string().optional(),
  detail: z.string().optional(),
});
/**
 * The document's ErrorResponse; the test environment's 503 sends its errors as a bare array, and
 * the gateway in front refuses a key with {"message": "Forbidden"}. Only their words are read.
 */
const ErrorWords = z.union([
  z.object({ errors: z.array(ErrorItem).min(1) }).transform((b) => b.errors[0]),
  z
    .array(ErrorItem)
    .min(1)
    .transform((items) => items[0]),
  z.object({ message: z.string() }).transform((b) => ({ detail: b.message })),
]);

export interface VesSourceOptions {
  /**
   * Without /v1/vehicles or a trailing slash (source-settings strips it):
   * https://driver-vehicle-licensing.api.gov.uk/vehicle-enquiry, the test environment's
   * https://uat.driver-vehicle-licensing.api.gov.uk/vehicle-enquiry, or a stand-in's.
   */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  now?: () => Date;
}

export function createVesSource(options: VesSourceOptions): LiveSource {
  const { baseUrl } = options;
  const fetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fail = (kind: SourceErrorKind, message: string, extra = {}) =>
    new SourceError("dvla-ves", kind, message, extra);

  /** The provider's own words about an error, without the key should it ever echo it. */
  function wordsOf(body: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return "";
    }
    const found = ErrorWords.safeParse(parsed);
    const item: z.infer<typeof ErrorItem> = (found.success && found.data) || {};
    const words = item.detail ?? item.title ?? "";
    const said = options.apiKey
      ? words.replaceAll(options.apiKey, "[key]")
      : words;
    return said.slice(0, WORDS_MAX);
  }

  function refusal(response: Response, body: string) {
    const { status } = response;
    // The source queue takes any plate in DVLA's words out before a message is logged or shown.
    const words = wordsOf(body);
    const said = words ? `: "${words}"` : "";
    const wait = retryAfterMs(response.headers, now());
    const after =
      wait === undefined ? "" : `; it asks VICS to wait ${wait / 1000} s`;
    if (status === 401 || status === 403)
      return fail(
        "credentials",
        `DVLA VES refused the API key (${status})${said}. The key is wrong or revoked: check that DVLA_VES_API_KEY_FILE holds the key DVLA issued for this environment (${baseUrl}).`,
        { status },
      );
    if (status === 429)
      return fail(
        "quota",
        `DVLA VES refused the request for its rate limit or daily quota (429)${said}${after}.`,
        { status, retryAfterMs: wait },
      );
    if (status === 503)
      return fail(
        "maintenance",
        `DVLA VES is down for maintenance (503)${said}${after}. Look-ups resume when it is back.`,
        { status, retryAfterMs: wait },
      );
    if (status >= 500)
      return fail(
        "unavailable",
        `DVLA VES failed with a server error (${status})${said}. Look-ups resume when it answers.`,
        { status, retryAfterMs: wait },
      );
    if (status >= 400)
      return fail(
        "refused",
        `DVLA VES refused a look-up as a bad request (${status})${said}: it does not take that registration.`,
        { status },
      );
    return fail(
      "unavailable",
      `DVLA VES answered with status ${status}, which it does not document: check the base URL ${baseUrl}.`,
      { status },
    );
  }

  function answerOf(body: string, registration: string, answeredAt: Date) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw fail(
        "malformed",
        "DVLA VES answered 200 with a body that is not JSON.",
        { status: 200 },
      );
    }
    const vehicle = VesVehicleSchema.safeParse(parsed);
    if (!vehicle.success) {
      const fields = [
        ...new Set(
          vehicle.error.issues.map((i) => i.path.join(".") || "(body)"),
        ),
      ];
      throw fail(
        "malformed",
        `DVLA VES answered 200 with a vehicle VICS cannot read as its document says (${fields.join(", ")}); nothing from it was kept.`,
        { status: 200, cause: vehicle.error },
      );
    }
    if (normaliseRegistration(vehicle.data.registrationNumber) !== registration)
      throw fail(
        "malformed",
        "DVLA VES answered about another vehicle than the one asked about; nothing from it was kept.",
        { status: 200 },
      );
    return factsOf(vehicle.data, registration, answeredAt);
  }

  return {
    name: "dvla-ves",
    baseUrl,
    async lookUp(registration, signal) {
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const response = await fetch(`${baseUrl}/v1/vehicles`, {
          method: "POST",
          headers: {
            "x-api-key": options.apiKey,
            "Content-Type": "application/json",
            Accept: "application/json",
          },
          body: JSON.stringify({ registrationNumber: registration }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const answeredAt = now();
        const body = await response.text();
        if (response.status === 200)
          return answerOf(body, registration, answeredAt);
        if (response.status === 404)
          return { found: false, registration, answeredAt };
        throw refusal(response, body);
      } catch (error) {
        if (error instanceof SourceError) throw error;
        // The caller's own abort is not the register's failure: it goes back as it came.
        if (signal?.aborted) throw signal.reason;
        if (timeout.aborted)
          throw fail(
            "unavailable",
            `DVLA VES did not answer within ${timeoutMs / 1000} s. Look-ups resume when it answers.`,
            { cause: error },
          );
        throw fail(
          "unavailable",
          `DVLA VES could not be reached at ${baseUrl} (${causeOf(error)}). Check the base URL and the network; look-ups resume when it answers.`,
          { cause: error },
        );
      }
    },
  };
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })
    ?.cause;
  return String(cause?.code ?? cause?.message ?? (error as Error)?.message);
}
