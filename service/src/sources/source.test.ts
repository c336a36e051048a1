import { describe, expect, it } from "vitest";
import { retryAfterMs } from "./source.ts";

describe("retryAfterMs", () => {
  const now = new Date("2026-11-29T08:00:00.000Z");
  const header = (value?: string) =>
    new Headers(value === undefined ? {} : { "retry-after": value });
  it.each([
    ["30", 30_000],
    ["0", 0],
    // An HTTP date counts from now, in whole seconds.
    ["Sun, 29 Nov 2026 08:02:00 GMT", 120_000],
    ["Sun, 29 Nov 2026 07:00:00 GMT", 0],
  ])("Retry-After: %s waits %d ms", (value, ms) => {
    expect(retryAfterMs(header(value), now)).toBe(ms);
  });
  it("is undefined when the header is absent or unreadable", () => {
    expect(retryAfterMs(header(), now)).toBeUndefined();
    expect(retryAfterMs(header("soon"), now)).toBeUndefined();
  });
});
