import { describe, expect, it } from "vitest";
import { ApiError, type ApiErrorCode } from "@vics/shared";
import { shouldRetry } from "./query-client.ts";

const apiError = (status: number, code: ApiErrorCode) =>
  new ApiError({ status, code, detail: "x" });

describe("shouldRetry", () => {
  it.each([
    [apiError(0, "NETWORK"), true],
    [apiError(500, "INTERNAL"), true],
    [apiError(502, "BAD_GATEWAY"), true],
    [apiError(504, "GATEWAY_TIMEOUT"), false],
    [apiError(400, "INVALID_REGISTRATION"), false],
    [apiError(401, "UNAUTHORIZED"), false],
    [apiError(404, "VEHICLE_NOT_FOUND"), false],
    [apiError(429, "RATE_LIMITED"), false],
    [apiError(200, "INVALID_RESPONSE"), false],
    [new Error("render bug"), false],
  ])("first failure %o -> retry %s", (error, expected) => {
    expect(shouldRetry(0, error)).toBe(expected);
  });

  it("retries at most once", () => {
    expect(shouldRetry(1, apiError(500, "INTERNAL"))).toBe(false);
  });
});
