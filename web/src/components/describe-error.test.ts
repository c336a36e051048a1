import { describe, expect, it } from "vitest";
import { ApiError, type ApiErrorCode } from "@vics/shared";
import { describeError } from "./describe-error.ts";

const errorWith = (code: ApiErrorCode, status: number) =>
  new ApiError({ status, code, detail: "detail", requestId: "req-1" });

describe("the request reference", () => {
  // Support needs it to find the request in the logs; elsewhere staff can act alone.
  it.each([
    ["INTERNAL", 500],
    ["BAD_GATEWAY", 502],
    ["GATEWAY_TIMEOUT", 504],
    ["SERVICE_UNAVAILABLE", 503],
    ["SOURCE_UNAVAILABLE", 503],
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

describe("the proxy's sign-in problems", () => {
  it("says a session that ended is to be signed into again, with nothing to retry", () => {
    expect(describeError(errorWith("SIGN_IN_REQUIRED", 401))).toMatchObject({
      kind: "signed-out",
      title: "Your session has ended",
      message: "Sign in again to continue.",
      retryable: false,
    });
  });

  it("says what the role lets the user do, what the request needed, and who to ask", () => {
    const error = new ApiError({
      status: 403,
      code: "ROLE_REQUIRED",
      detail: "detail",
      neededRole: "fleet",
    });
    expect(describeError(error, undefined, "staff")).toMatchObject({
      kind: "role-required",
      message:
        "Your role, staff, lets you make single insurance and compliance checks. Fleet checks need the fleet role: ask an admin.",
      retryable: false,
    });
  });
});

describe("a 503 while a database or Redis restarts", () => {
  it("says nothing was checked and how long to wait, from Retry-After", () => {
    const error = new ApiError({
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      detail: "x",
      requestId: "req-9",
      retryAfterSeconds: 7,
    });
    expect(describeError(error)).toMatchObject({
      kind: "unavailable",
      title: "VICS is briefly unavailable",
      retryable: true,
      requestId: "req-9",
    });
    expect(describeError(error).message).toContain(
      "Nothing was checked. Try again in 7 seconds.",
    );
    // Without the header: the servers' own wait.
    const bare = new ApiError({
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      detail: "x",
    });
    expect(describeError(bare).message).toContain("Try again in 5 seconds.");
  });
});

describe("a 503 from a live register that could not be asked", () => {
  const detail =
    "VICS holds no record of AB12 CDE yet, and DVLA could not be asked just now: its credentials were refused. Retry in 300 seconds.";

  it("shows the service's own words (the register and why) and waits its Retry-After", () => {
    const error = new ApiError({
      status: 503,
      code: "SOURCE_UNAVAILABLE",
      detail,
      requestId: "req-9",
      retryAfterSeconds: 300,
    });
    const words = describeError(error, "AB12CDE");
    expect(words).toMatchObject({
      kind: "unavailable",
      title: "The register could not be asked",
      retryable: true,
      waitSeconds: 300,
      requestId: "req-9",
    });
    expect(words.message.startsWith(`${detail} `)).toBe(true);
    // Not the words for a database or Redis restarting.
    expect(words.message).not.toContain("restarts");
  });

  it("waits the servers' own few seconds when Retry-After is missing", () => {
    const error = new ApiError({
      status: 503,
      code: "SOURCE_UNAVAILABLE",
      detail,
    });
    expect(describeError(error).waitSeconds).toBe(5);
  });
});

describe("a 429", () => {
  const refusal = (ownLimit?: boolean) =>
    new ApiError({
      status: 429,
      code: "RATE_LIMITED",
      detail: "x",
      retryAfterSeconds: 40,
      ownLimit,
    });

  it("from the person's own limit says it is theirs, not VICS's", () => {
    const words = describeError(refusal(true));
    expect(words).toMatchObject({ kind: "rate-limited", waitSeconds: 40 });
    expect(words.message).toMatch(
      /^You have made too many checks in the last minute: this is your own limit/,
    );
    expect(words.message).not.toContain("VICS has made");
  });

  it("from the key's plan says VICS as a whole made them", () => {
    const words = describeError(refusal());
    expect(words.message).toMatch(
      /^VICS has made too many checks in the last minute: this limit is shared by everyone/,
    );
  });
});
