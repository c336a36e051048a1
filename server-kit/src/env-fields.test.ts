import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MAX_TIMER_MS,
  portField,
  wholeNumber,
  wholeNumberOrUnset,
} from "./env-fields.ts";

/** The field's value, or its first problem's words. */
function read(field: z.ZodType, value: string | undefined) {
  const result = field.safeParse(value);
  return result.success ? result.data : result.error.issues[0]!.message;
}

describe("a whole number in the environment", () => {
  it.each(["1e3", " 5 ", "0x10", "1.0", "-5", "five"])(
    "refuses %j, which Number() would read or half-read",
    (text) => {
      // "-5" is a whole number: the words say which ones are taken.
      expect(read(wholeNumber(7), text)).toBe(
        "must be a whole number, at least 1",
      );
      expect(read(wholeNumberOrUnset({ min: 0 }), text)).toBe(
        "must be a whole number, at least 0",
      );
      expect(read(portField(3000), text)).toBe(
        "must be a whole number, at least 0",
      );
    },
  );

  it("is 1 to what a timer takes unless told, and its fallback when unset or empty", () => {
    expect(read(wholeNumber(7), undefined)).toBe(7);
    expect(read(wholeNumber(7), "")).toBe(7);
    expect(read(wholeNumber(7), "12")).toBe(12);
    expect(read(wholeNumber(7), "0")).toBe("must be at least 1");
    expect(read(wholeNumber(7), String(MAX_TIMER_MS))).toBe(MAX_TIMER_MS);
    expect(read(wholeNumber(7), String(MAX_TIMER_MS + 1))).toBe(
      `must be at most ${MAX_TIMER_MS}`,
    );
  });

  it("takes 0 where allowed, and says its maximum in the variable's words", () => {
    const lead = wholeNumber(240, {
      min: 0,
      max: 720,
      tooLarge: "must be at most 720 (12 hours)",
    });
    expect(read(lead, "0")).toBe(0);
    expect(read(lead, "720")).toBe(720);
    expect(read(lead, "721")).toBe("must be at most 720 (12 hours)");
    expect(read(wholeNumberOrUnset({ min: 0 }), undefined)).toBeUndefined();
    expect(read(wholeNumberOrUnset({ min: 0 }), "0")).toBe(0);
  });

  it("is a port from 0 (any free one) to 65535", () => {
    expect(read(portField(3000), undefined)).toBe(3000);
    expect(read(portField(3000), "0")).toBe(0);
    expect(read(portField(3000), "65535")).toBe(65535);
    expect(read(portField(3000), "65536")).toBe("must be at most 65535");
  });
});
