// Property tests of the shared parsers, over the hostile inputs of testing/fuzz-inputs.ts:
// whatever the text, an answer that keeps the contract's rules, and never a hang.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BULK_MAX_REGISTRATIONS } from "./bulk.ts";
import {
  BULK_MAX_ITEM_LENGTH,
  BULK_REQUEST_DETAILS,
  isJsonContentType,
  readBulkRequest,
} from "./bulk-request.ts";
import {
  formatRegistration,
  lookalikeRegistrations,
  normaliseRegistration,
  parseRegistration,
  REGISTRATION_MAX_LENGTH,
} from "./registration.ts";
import {
  bulkBody,
  contentType,
  FUZZ_TEST_TIMEOUT_MS,
  fuzz,
  headerValue,
  registrationText,
} from "./testing/fuzz.ts";

const PLATE = /^[A-Z0-9]{2,7}$/;
const LOOKALIKE: Record<string, string> = {
  O: "0",
  "0": "O",
  I: "1",
  "1": "I",
};

describe("parseRegistration over any text", () => {
  it(
    "answers a normalised plate from the text's own letters and digits, or a problem with a message",
    async () => {
      const report = await fuzz(
        "shared: parseRegistration",
        fc.oneof(registrationText(), fc.string({ unit: "binary" })),
        (text) => {
          const parsed = parseRegistration(text);
          const normalised = normaliseRegistration(text);
          expect(normaliseRegistration(normalised)).toBe(normalised);
          if (!parsed.ok) {
            expect(parsed.message).toMatch(/^(Enter|Registration must)/);
            return `invalid: ${parsed.problem}`;
          }
          expect(parsed.registration).toBe(normalised);
          expect(parsed.registration).toMatch(PLATE);
          // Only spaces and hyphens are dropped, and only a-z change: ß is not SS.
          expect(text.replace(/[\s-]+/g, "").toUpperCase()).toBe(
            parsed.registration,
          );
          expect(text.replace(/[\s-]+/g, "")).toMatch(/^[A-Za-z0-9]+$/);
          // The display form reads back as the same plate.
          expect(parseRegistration(formatRegistration(text))).toEqual(parsed);
          return `valid: ${parsed.format}`;
        },
        {
          examples: [
            "AB12Cß",
            "ab12cdı",
            "ﬀ12ABC",
            "Ａ B12CDE",
            "AB12\u2028CDE",
          ],
        },
      );
      expect(
        Object.keys(report.outcomes).some((o) => o.startsWith("valid")),
      ).toBe(true);
      expect(
        Object.keys(report.outcomes).filter((o) => o.startsWith("invalid"))
          .length,
      ).toBeGreaterThanOrEqual(3);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});

describe("lookalikeRegistrations over any text", () => {
  it(
    "offers only valid plates one O/0 or I/1 swap away, and answers at once for long text",
    async () => {
      await fuzz(
        "shared: lookalikeRegistrations",
        fc.tuple(
          fc.oneof(
            registrationText(),
            // Text made of the swappable characters alone: 2^n combinations.
            fc.string({
              unit: fc.constantFrom("O", "0", "I", "1", "A", " "),
              maxLength: 40,
            }),
          ),
          fc.integer({ min: 1, max: 127 }),
        ),
        ([text, limit]) => {
          const suggestions = lookalikeRegistrations(text, limit);
          const registration = normaliseRegistration(text);
          expect(suggestions.length).toBeLessThanOrEqual(limit);
          expect(new Set(suggestions).size).toBe(suggestions.length);
          for (const suggestion of suggestions) {
            expect(parseRegistration(suggestion).ok).toBe(true);
            expect(suggestion).not.toBe(registration);
            expect(suggestion).toHaveLength(registration.length);
            [...suggestion].forEach((char, index) => {
              const typed = registration[index] ?? "";
              if (char !== typed) expect(LOOKALIKE[typed]).toBe(char);
            });
          }
          return suggestions.length === 0
            ? "no suggestion"
            : `${Math.min(suggestions.length, 5)}${suggestions.length >= 5 ? "+" : ""} suggestions`;
        },
        {
          // 30 swappable characters: a billion combinations if each were tried.
          examples: [
            ["O0".repeat(15), 3],
            ["I1".repeat(12), 5],
            ["OI01", 3],
          ],
          describe: ([text, limit]) =>
            `${fc.stringify(text.slice(0, 60))}${text.length > 60 ? `… (${text.length} chars)` : ""}, limit ${limit}`,
        },
      );
      expect(REGISTRATION_MAX_LENGTH).toBe(7);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});

const KNOWN_DETAILS = new Set<string>([
  BULK_REQUEST_DETAILS.invalidJson,
  BULK_REQUEST_DETAILS.notAnObject,
  BULK_REQUEST_DETAILS.missing,
  BULK_REQUEST_DETAILS.notAnArray,
  BULK_REQUEST_DETAILS.empty,
]);

/** The detail as a label: the fixed ones as they are, the counted ones by their pattern. */
function detailLabel(detail: string): string {
  if (KNOWN_DETAILS.has(detail)) return detail;
  const tooMany =
    /^"registrations" has ([\d,]+) items; the maximum is 1,000$/.exec(detail);
  if (tooMany) {
    expect(Number(tooMany[1]?.replaceAll(",", ""))).toBeGreaterThan(
      BULK_MAX_REGISTRATIONS,
    );
    return BULK_REQUEST_DETAILS.tooMany(0).replace("0", "N");
  }
  if (/^registrations\[\d+\] must be a string$/.test(detail))
    return "registrations[i] must be a string";
  const tooLong = /^registrations\[\d+\] is ([\d,]+) characters long, /.exec(
    detail,
  );
  if (tooLong) {
    expect(Number(tooLong[1]?.replaceAll(",", ""))).toBeGreaterThan(
      BULK_MAX_ITEM_LENGTH,
    );
    return "registrations[i] is longer than any registration";
  }
  throw new Error(`An undocumented detail: ${detail}`);
}

describe("readBulkRequest over any body", () => {
  it(
    "reads a list of 1 to 1,000 strings, or names the one problem in the contract's words",
    async () => {
      const report = await fuzz(
        "shared: readBulkRequest",
        fc.oneof(
          bulkBody().map((body) => new TextDecoder().decode(body.body)),
          fc.string({ unit: "binary", maxLength: 300 }),
        ),
        (text) => {
          const reading = readBulkRequest(text);
          if (!reading.ok) return detailLabel(reading.detail);
          const { registrations } = reading.request;
          expect(registrations.length).toBeGreaterThanOrEqual(1);
          expect(registrations.length).toBeLessThanOrEqual(
            BULK_MAX_REGISTRATIONS,
          );
          expect(registrations).toEqual(
            (JSON.parse(text) as { registrations: unknown }).registrations,
          );
          for (const item of registrations)
            expect(item.trim().length).toBeLessThanOrEqual(
              BULK_MAX_ITEM_LENGTH,
            );
          return "read";
        },
        { describe: (text) => fc.stringify(text.slice(0, 200)) },
      );
      expect(report.outcomes.read).toBeGreaterThan(0);
      expect(Object.keys(report.outcomes).length).toBeGreaterThanOrEqual(6);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});

describe("isJsonContentType over any header", () => {
  it(
    "accepts application/json, with any parameters and letter case, and nothing else",
    async () => {
      await fuzz(
        "shared: isJsonContentType",
        fc.oneof(contentType(), headerValue()),
        (header) => {
          const json = isJsonContentType(header);
          expect(json).toBe(
            header !== null &&
              /^[ \t]*application\/json[ \t]*(;.*)?$/i.test(header),
          );
          return json ? "JSON" : "not JSON";
        },
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
