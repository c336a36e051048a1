import { describe, expect, it } from "vitest";
import { parseRateLimitHeaders, parseRetryAfter } from "./rate-limit.ts";
import { isAcceptableRequestId } from "./request-id.ts";

describe("parseRateLimitHeaders", () => {
  it("reads the three headers", () => {
    const headers = new Headers({
      "X-RateLimit-Limit": "120",
      "X-RateLimit-Remaining": "7",
      "X-RateLimit-Reset": "42",
    });
    expect(parseRateLimitHeaders(headers)).toEqual({
      limit: 120,
      remaining: 7,
      resetSeconds: 42,
    });
  });

  it.each([
    [{}],
    [{ "X-RateLimit-Limit": "120", "X-RateLimit-Remaining": "7" }],
    [
      {
        "X-RateLimit-Limit": "a",
        "X-RateLimit-Remaining": "7",
        "X-RateLimit-Reset": "1",
      },
    ],
    [
      {
        "X-RateLimit-Limit": "10",
        "X-RateLimit-Remaining": "-1",
        "X-RateLimit-Reset": "1",
      },
    ],
  ])("is undefined for incomplete or unreadable headers %j", (init) => {
    expect(parseRateLimitHeaders(new Headers(init))).toBeUndefined();
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter(new Headers({ "Retry-After": "17" }))).toBe(17);
  });
  it("reads an HTTP date", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const headers = new Headers({
      "Retry-After": "Thu, 01 Jan 2026 00:00:30 GMT",
    });
    expect(parseRetryAfter(headers, now)).toBe(30);
  });
  it("is undefined when absent or junk", () => {
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(
      parseRetryAfter(new Headers({ "Retry-After": "soon" })),
    ).toBeUndefined();
  });
});

describe("isAcceptableRequestId", () => {
  it.each([
    ["5f0c1d2e-0000-4000-8000-000000000000", true],
    ["abc.DEF_123-x", true],
    ["x".repeat(64), true],
    ["x".repeat(65), false],
    ["", false],
    [undefined, false],
    ["id with spaces", false],
    ["id\nInjected: header", false],
  ])("%j -> %s", (value, expected) => {
    expect(isAcceptableRequestId(value)).toBe(expected);
  });
});
