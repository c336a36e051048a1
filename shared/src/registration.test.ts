import { describe, expect, it } from "vitest";
import {
  formatRegistration,
  lookalikeRegistrations,
  normaliseRegistration,
  parseRegistration,
} from "./registration.ts";

describe("normaliseRegistration", () => {
  it.each([
    ["ab12 cde", "AB12CDE"],
    ["AB12-CDE", "AB12CDE"],
    ["  ab12cde  ", "AB12CDE"],
    ["a b-1 2\tc d e", "AB12CDE"],
    ["", ""],
    ["   ", ""],
    // Only a-z is upper-cased (found by registration.fuzz.test.ts): "ß" is not "SS".
    ["ab12cß", "AB12Cß"],
    ["0ı", "0ı"],
  ])("%j -> %j", (input, expected) => {
    expect(normaliseRegistration(input)).toBe(expected);
  });
});

describe("parseRegistration: valid formats", () => {
  it.each([
    ["AB12CDE", "AB12CDE", "current"],
    ["ab12 cde", "AB12CDE", "current"],
    ["A1BCD", "A1BCD", "prefix"],
    ["A123BCD", "A123BCD", "prefix"],
    ["ABC1D", "ABC1D", "suffix"],
    ["ABC123D", "ABC123D", "suffix"],
    ["A1", "A1", "dateless"],
    ["ABZ1234", "ABZ1234", "dateless"],
    ["1A", "1A", "dateless"],
    ["1234ABC", "1234ABC", "dateless"],
    ["ER19NFD", "ER19NFD", "current"],
  ])("%j is %s (%s)", (input, registration, format) => {
    expect(parseRegistration(input)).toEqual({
      ok: true,
      registration,
      format,
    });
  });
});

describe("parseRegistration: invalid input", () => {
  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["-", "empty"],
    ["A", "too_short"],
    ["1", "too_short"],
    ["AB12CDEF", "too_long"],
    ["A".repeat(100), "too_long"],
    ["🚗", "invalid_characters"],
    ["AB12CD🚗", "invalid_characters"],
    ["'; DROP TABLE vehicles; --", "invalid_characters"],
    ["1' OR '1'='1", "invalid_characters"],
    ["../", "invalid_characters"],
    ["../../etc/passwd", "invalid_characters"],
    ["AB12.CDE", "invalid_characters"],
    ["ÅB12CDE", "invalid_characters"],
    ["AB12Cß", "invalid_characters"],
    ["0ß", "invalid_characters"],
    ["ab12cdı", "invalid_characters"],
    ["ﬀ12ABC", "invalid_characters"],
    ["AB", "unknown_format"],
    ["12", "unknown_format"],
    ["ABCDEFG", "unknown_format"],
    ["1234567", "unknown_format"],
    ["AB123CD", "unknown_format"],
    ["A1234BC", "unknown_format"],
    ["12345AB", "unknown_format"],
    ["ABCD123", "unknown_format"],
  ])("%j is invalid: %s", (input, problem) => {
    const parsed = parseRegistration(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toBe(problem);
      expect(parsed.message.length).toBeGreaterThan(10);
    }
  });
});

describe("formatRegistration", () => {
  it.each([
    ["AB12CDE", "AB12 CDE"],
    ["ab12-cde", "AB12 CDE"],
    ["A123BCD", "A123 BCD"],
    ["A1BCD", "A1 BCD"],
    ["ABC123D", "ABC 123D"],
    ["ABZ1234", "ABZ 1234"],
    ["1234AB", "1234 AB"],
    ["A1", "A 1"],
    ["not valid!", "NOTVALID!"],
  ])("%j -> %j", (input, expected) => {
    expect(formatRegistration(input)).toBe(expected);
  });
});

describe("lookalikeRegistrations", () => {
  it("swaps O and 0 into a valid format", () => {
    expect(lookalikeRegistrations("AB12CDO")).toEqual([]);
    expect(lookalikeRegistrations("ABI2CDE")).toEqual(["AB12CDE"]);
    expect(lookalikeRegistrations("A812C0E")).toEqual(["A812COE"]);
    expect(lookalikeRegistrations("AB12CD0")).toEqual(["AB12CDO"]);
  });

  it("puts single swaps before double swaps and never returns the input", () => {
    const found = lookalikeRegistrations("OB1ICDE");
    expect(found).not.toContain("OB1ICDE");
    expect(found[0]).toBe("OB11CDE");
    expect(found).toContain("OB11CDE");
  });

  it("returns nothing when there is nothing to swap", () => {
    expect(lookalikeRegistrations("XY12ZZZ")).toEqual([]);
  });

  // A plate has letters and digits: a swap that supplies the missing kind is a guess.
  it.each([
    ["a fleet number", "12345"],
    ["digits with spaces", "1 2 3 4"],
    ["letters alone", "ABOO"],
    ["letters alone, lower case", "io"],
  ])("offers nothing for %s (%j)", (_name, text) => {
    expect(lookalikeRegistrations(text)).toEqual([]);
  });

  // Found by registration.fuzz.test.ts: the search tried 2^30 combinations for this text, a
  // frozen page in the single-check form, which asks on every render while an error shows.
  it("offers nothing, at once, for text longer than a plate", () => {
    expect(lookalikeRegistrations("O0".repeat(15))).toEqual([]);
    expect(lookalikeRegistrations("AB12CD0O")).toEqual([]);
  });

  it("still offers swaps for text of both letters and digits", () => {
    expect(lookalikeRegistrations("AB0O")).toEqual(["AB00", "ABO0"]);
    expect(lookalikeRegistrations("1O")).toEqual(["I0"]);
  });
});
