import { describe, expect, it } from "vitest";
import { ApiError } from "@vics/shared";
import { signInErrorWords, WRONG_CREDENTIALS } from "./sign-in-errors.ts";

const refused = (
  status: number,
  code: ApiError["code"],
  retryAfterSeconds?: number,
) => new ApiError({ status, code, detail: "x", retryAfterSeconds });

describe("signInErrorWords", () => {
  it("says the same for a wrong password and an unknown email", () => {
    expect(signInErrorWords(refused(401, "UNAUTHORIZED"))).toBe(
      WRONG_CREDENTIALS,
    );
  });

  it("says how long to wait after too many tries, from Retry-After", () => {
    expect(signInErrorWords(refused(429, "RATE_LIMITED", 840))).toBe(
      "There have been too many tries to sign in. Wait 14 minutes, then try again.",
    );
  });

  it("says VICS is restarting and to try again in seconds on a 503", () => {
    expect(signInErrorWords(refused(503, "SERVICE_UNAVAILABLE", 5))).toBe(
      "VICS cannot sign you in right now while part of it restarts. Try again in 5 seconds.",
    );
  });
});
