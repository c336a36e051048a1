/**
 * `@vics/shared/testing/malformed-bulk-bodies`: the bulk bodies both apps refuse with 400
 * MALFORMED_REQUEST, and the words they must give (decision 014), so the service's tests and
 * the proxy's pin the same refusals. Test support.
 */

const json = (value: unknown) => JSON.stringify(value);
const NOT_JSON =
  "The body must be JSON, sent with Content-Type: application/json";

/** [case, Content-Type (null: none), body, the problem's detail] */
export const MALFORMED_BULK_BODIES: ReadonlyArray<
  readonly [string, string | null, string, string]
> = [
  [
    "Content-Type text/plain",
    "text/plain",
    json({ registrations: ["AB12CDE"] }),
    NOT_JSON,
  ],
  [
    "a form content type",
    "application/x-www-form-urlencoded",
    "registrations=AB12CDE",
    NOT_JSON,
  ],
  ["no Content-Type", null, json({ registrations: ["AB12CDE"] }), NOT_JSON],
  [
    "invalid JSON",
    "application/json",
    '{"registrations": [',
    "The body is not valid JSON",
  ],
  ["no body at all", "application/json", "", "The body is not valid JSON"],
  [
    "a JSON array",
    "application/json",
    json(["AB12CDE"]),
    'The body must be a JSON object with a "registrations" array',
  ],
  [
    "a missing field",
    "application/json",
    json({ plates: ["AB12CDE"] }),
    '"registrations" is missing',
  ],
  [
    "a string field",
    "application/json",
    json({ registrations: "AB12CDE" }),
    '"registrations" must be an array of strings',
  ],
  [
    "a null field",
    "application/json",
    json({ registrations: null }),
    '"registrations" must be an array of strings',
  ],
  [
    "a number among the items",
    "application/json",
    json({ registrations: ["AB12CDE", "UN51NSD", "LP08SED", 42] }),
    "registrations[3] must be a string",
  ],
  [
    "false among the items",
    "application/json",
    json({ registrations: ["AB12CDE", false] }),
    "registrations[1] must be a string",
  ],
  [
    "an empty list",
    "application/json",
    json({ registrations: [] }),
    '"registrations" must not be empty',
  ],
  [
    "1,001 registrations",
    "application/json",
    json({ registrations: Array(1001).fill("A1") }),
    '"registrations" has 1,001 items; the maximum is 1,000',
  ],
  [
    // Once sent on, and answered as a failed item that echoed all 60,000 characters.
    "an item longer than any registration",
    "application/json",
    json({ registrations: ["AB12CDE", "x".repeat(60_000)] }),
    "registrations[1] is 60,000 characters long, longer than any registration could be (at most 32, spaces included)",
  ],
];
