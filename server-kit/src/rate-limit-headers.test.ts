import { describe, expect, it } from "vitest";
import { OWN_LIMIT_HEADERS, RATE_LIMIT_HEADERS } from "@vics/shared";
import { rateLimitHeaders, setRateLimitHeaders } from "./rate-limit-headers.ts";

const decision = { limit: 60, remaining: 7, resetSeconds: 42 };

describe("setRateLimitHeaders", () => {
  it.each([
    ["the service's X-RateLimit-*", RATE_LIMIT_HEADERS],
    ["the person's own budget", OWN_LIMIT_HEADERS],
  ])(
    "sets on an answer the same three headers rateLimitHeaders names, for %s",
    (_budget, names) => {
      const headers = new Headers({ "Content-Type": "application/json" });
      setRateLimitHeaders(headers, decision, names);
      expect(Object.fromEntries(headers)).toEqual({
        "content-type": "application/json",
        ...Object.fromEntries(
          new Headers(rateLimitHeaders(decision, names)).entries(),
        ),
      });
      expect(headers.get(names.remaining)).toBe("7");
    },
  );

  it("replaces a reading already there", () => {
    const headers = new Headers({ [RATE_LIMIT_HEADERS.remaining]: "59" });
    setRateLimitHeaders(headers, decision);
    expect(headers.get(RATE_LIMIT_HEADERS.remaining)).toBe("7");
  });
});
