import type { z } from "zod";
import {
  BULK_MAX_BODY_BYTES,
  BULK_MAX_REGISTRATIONS,
  type BulkRequest,
  BulkRequestSchema,
} from "./bulk.ts";
import { readPointInTime } from "./point-in-time.ts";

/**
 * Reading a bulk request body, in the words the service and the proxy both answer with,
 * so a malformed body gets the same 400 or 413 detail whichever of them refuses it.
 */

const count = new Intl.NumberFormat("en-GB");

/**
 * The longest item a bulk list may hold, once trimmed. A registration has at most 7 letters
 * and digits (REGISTRATION_MAX_LENGTH in registration.ts), and its spaces and hyphens are
 * dropped when it is read: even written "A - B - 1 - 2 - C - D - E" it is 25 characters.
 * Anything over 32 cannot be a registration, yet an invalid item is answered as it was sent:
 * without this bound a 60,000-character item went to the service and came back in its answer.
 */
export const BULK_MAX_ITEM_LENGTH = 32;

export const BULK_REQUEST_DETAILS = {
  contentType:
    "The body must be JSON, sent with Content-Type: application/json",
  tooLarge: `The body is larger than the maximum of ${count.format(BULK_MAX_BODY_BYTES / 1024)} KiB (${count.format(BULK_MAX_BODY_BYTES)} bytes); send at most ${count.format(BULK_MAX_REGISTRATIONS)} registrations per request`,
  invalidJson: "The body is not valid JSON",
  notAnObject: 'The body must be a JSON object with a "registrations" array',
  missing: '"registrations" is missing',
  notAnArray: '"registrations" must be an array of strings',
  empty: '"registrations" must not be empty',
  tooMany: (items: number) =>
    `"registrations" has ${count.format(items)} items; the maximum is ${count.format(BULK_MAX_REGISTRATIONS)}`,
  notAString: (index: number) => `registrations[${index}] must be a string`,
  tooLongItem: (index: number, length: number) =>
    `registrations[${index}] is ${count.format(length)} characters long, longer than any registration could be (at most ${BULK_MAX_ITEM_LENGTH}, spaces included)`,
  incomplete:
    "The body stopped before its end (the connection closed or was too slow); send the request again",
} as const;

/** application/json, in any letter case, with or without parameters such as charset. */
export function isJsonContentType(header: string | null | undefined): boolean {
  const mediaType = header?.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The one problem a client should fix first, named from the schema's issues: the body's
 * shape, then the field, then its size, then the first item that is not a string.
 */
export function describeBulkRequestError(
  input: unknown,
  error: z.ZodError,
): string {
  if (!isObject(input)) return BULK_REQUEST_DETAILS.notAnObject;
  const registrations = input.registrations;
  if (registrations === undefined) return BULK_REQUEST_DETAILS.missing;
  if (!Array.isArray(registrations)) return BULK_REQUEST_DETAILS.notAnArray;
  if (registrations.length === 0) return BULK_REQUEST_DETAILS.empty;
  if (registrations.length > BULK_MAX_REGISTRATIONS)
    return BULK_REQUEST_DETAILS.tooMany(registrations.length);
  const item = error.issues.find(
    (issue) =>
      issue.path[0] === "registrations" && typeof issue.path[1] === "number",
  );
  if (item) return BULK_REQUEST_DETAILS.notAString(Number(item.path[1]));
  const asked = readPointInTime(input);
  if (!asked.ok) return asked.detail;
  return error.issues[0]?.message ?? BULK_REQUEST_DETAILS.notAnObject;
}

export type BulkRequestReading =
  { ok: true; request: BulkRequest } | { ok: false; detail: string };

/** The first item longer than BULK_MAX_ITEM_LENGTH once trimmed, as its refusal's words. */
function tooLongItem(registrations: readonly string[]): string | undefined {
  const index = registrations.findIndex(
    (item) => item.trim().length > BULK_MAX_ITEM_LENGTH,
  );
  if (index === -1) return undefined;
  const length = registrations[index]?.trim().length ?? 0;
  return BULK_REQUEST_DETAILS.tooLongItem(index, length);
}

/**
 * Parses and validates a bulk request body. Members other than `registrations` and the
 * point-in-time extension's `date` and `asKnownAt` are dropped, not refused
 * (docs/decisions/014-bulk-request-bodies.md); an item longer than any registration is
 * refused, naming its position.
 */
export function readBulkRequest(text: string): BulkRequestReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, detail: BULK_REQUEST_DETAILS.invalidJson };
  }
  const parsed = BulkRequestSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, detail: describeBulkRequestError(json, parsed.error) };
  const tooLong = tooLongItem(parsed.data.registrations);
  if (tooLong) return { ok: false, detail: tooLong };
  return { ok: true, request: parsed.data };
}
