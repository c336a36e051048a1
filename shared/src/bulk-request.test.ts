import { describe, expect, it } from "vitest";
import {
  BULK_MAX_ITEM_LENGTH,
  BULK_REQUEST_DETAILS,
  isJsonContentType,
  readBulkRequest,
} from "./bulk-request.ts";
import { parseRegistration } from "./registration.ts";

const body = (value: unknown) => JSON.stringify(value);

describe("readBulkRequest", () => {
  it("accepts a list and keeps its order and duplicates", () => {
    expect(
      readBulkRequest(body({ registrations: ["b", "a", "b", " "] })),
    ).toEqual({ ok: true, request: { registrations: ["b", "a", "b", " "] } });
  });

  it("accepts exactly 1,000 registrations", () => {
    const reading = readBulkRequest(
      body({ registrations: Array(1000).fill("AB12CDE") }),
    );
    expect(reading.ok).toBe(true);
  });

  it("drops members other than registrations", () => {
    expect(
      readBulkRequest(body({ registrations: ["AB12CDE"], note: "x" })),
    ).toEqual({ ok: true, request: { registrations: ["AB12CDE"] } });
  });

  it("accepts an item of BULK_MAX_ITEM_LENGTH characters once trimmed, and a plate spelled out with separators", () => {
    const longest = ` ${"A".repeat(BULK_MAX_ITEM_LENGTH)}\t`;
    const spaced = [..."AB12CDE"].join(" - ");
    expect(parseRegistration(spaced).ok).toBe(true);
    expect(spaced.length).toBeLessThanOrEqual(BULK_MAX_ITEM_LENGTH);
    expect(readBulkRequest(body({ registrations: [longest, spaced] }))).toEqual(
      { ok: true, request: { registrations: [longest, spaced] } },
    );
  });

  it.each([
    ["not JSON", "{registrations: [", "The body is not valid JSON"],
    ["an empty body", "", "The body is not valid JSON"],
    ["JSON null", "null", BULK_REQUEST_DETAILS.notAnObject],
    ["a JSON array", body(["AB12CDE"]), BULK_REQUEST_DETAILS.notAnObject],
    ["a JSON string", body("AB12CDE"), BULK_REQUEST_DETAILS.notAnObject],
    ["no registrations", body({ plates: [] }), '"registrations" is missing'],
    [
      "registrations null",
      body({ registrations: null }),
      '"registrations" must be an array of strings',
    ],
    [
      "registrations a string",
      body({ registrations: "AB12CDE" }),
      '"registrations" must be an array of strings',
    ],
    [
      "registrations an object",
      body({ registrations: { 0: "AB12CDE" } }),
      '"registrations" must be an array of strings',
    ],
    [
      "a number at index 3",
      body({ registrations: ["A1", "B2", "C3", 4, null] }),
      "registrations[3] must be a string",
    ],
    [
      "null at index 0",
      body({ registrations: [null] }),
      "registrations[0] must be a string",
    ],
    [
      "an empty list",
      body({ registrations: [] }),
      '"registrations" must not be empty',
    ],
    [
      "1,001 items",
      body({ registrations: Array(1001).fill("AB12CDE") }),
      '"registrations" has 1,001 items; the maximum is 1,000',
    ],
    [
      "12,345 numbers: the size is named before the items",
      body({ registrations: Array(12345).fill(1) }),
      '"registrations" has 12,345 items; the maximum is 1,000',
    ],
    [
      "a 60,000-character item at index 2",
      body({ registrations: ["AB12CDE", "LP08SED", "X".repeat(60_000)] }),
      "registrations[2] is 60,000 characters long, longer than any registration could be (at most 32, spaces included)",
    ],
    [
      "an item one character over the bound",
      body({ registrations: ["A".repeat(BULK_MAX_ITEM_LENGTH + 1)] }),
      "registrations[0] is 33 characters long, longer than any registration could be (at most 32, spaces included)",
    ],
    [
      "a long item and a number after it: the number, as the shape comes first",
      body({ registrations: ["X".repeat(100), 7] }),
      "registrations[1] must be a string",
    ],
  ])("refuses %s, naming the problem", (_case, text, detail) => {
    expect(readBulkRequest(text)).toEqual({ ok: false, detail });
  });
});

describe("the 413 detail", () => {
  it("names the maximum", () => {
    expect(BULK_REQUEST_DETAILS.tooLarge).toContain("64 KiB (65,536 bytes)");
  });
});

describe("isJsonContentType", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON;charset=UTF-8", true],
    [" application/json ", true],
    ["text/plain", false],
    ["application/problem+json", false],
    ["application/x-www-form-urlencoded", false],
    ["multipart/form-data; boundary=x", false],
    ["application/jsonp", false],
    ["", false],
    [null, false],
    [undefined, false],
  ])("%j -> %s", (header, expected) => {
    expect(isJsonContentType(header)).toBe(expected);
  });
});
