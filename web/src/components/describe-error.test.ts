import { describe, expect, it } from "vitest";
import { ApiError, type ApiErrorCode } from "../lib/api-error.ts";
import { describeError } from "./describe-error.ts";

const errorWith = (code: ApiErrorCode, status: number) =>
  new ApiError({ status, code, detail: "detail", requestId: "req-1" });

describe("the request reference", () => {
  // Support needs it to find the request in the logs; elsewhere staff can act alone.
  it.each([
    ["INTERNAL", 500],
    ["BAD_GATEWAY", 502],
    ["GATEWAY_TIMEOUT", 504],
    ["INVALID_RESPONSE", 200],
    ["UNAUTHORIZED", 401],
    ["METHOD_NOT_ALLOWED", 405],
  ] as const)("is shown for %s (%i)", (code, status) => {
    expect(describeError(errorWith(code, status)).requestId).toBe("req-1");
  });

  it.each([
    ["VEHICLE_NOT_FOUND", 404],
    ["RATE_LIMITED", 429],
    ["INVALID_REGISTRATION", 400],
    ["NETWORK", 0],
  ] as const)("is not shown for %s (%i)", (code, status) => {
    expect(describeError(errorWith(code, status)).requestId).toBeUndefined();
  });
});
