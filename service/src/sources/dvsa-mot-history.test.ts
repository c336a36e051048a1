import { afterEach, describe, expect, it } from "vitest";
import { createMotHistorySource } from "./dvsa-mot-history.ts";
import type { MotHistoryVehicle } from "./dvsa-mot-answer.ts";
import { createTokenCache } from "./dvsa-token.ts";
import { SourceError } from "./source.ts";
import {
  type MotStandIn,
  startMotStandIn,
} from "../testing/sources/mot-stand-in.ts";

const START = Date.parse("2026-11-29T09:00:00Z");

// Shaped as DVSA's specification and examples give a vehicle with tests, out of date order.
const TESTED: MotHistoryVehicle = {
  registration: "AB12CDE",
  make: "FORD",
  model: "FOCUS",
  firstUsedDate: "2012-03-01",
  fuelType: "Petrol",
  primaryColour: "Blue",
  registrationDate: "2012-03-02",
  manufactureDate: "2011-12-20",
  engineSize: "1596",
  hasOutstandingRecall: "No",
  motTests: [
    test("2024-02-27T10:00:00.000Z", "PASSED", "2025-02-26"),
    test("2023-02-20T09:30:00.000Z", "FAILED", null),
    // 00:30 in London on 1 July (BST): the UK date, not the UTC one.
    test("2025-06-30T23:30:00.000Z", "PASSED", "2026-06-30"),
    test("2023-02-24T14:00:00.000Z", "PASSED", "2024-02-23"),
    test("2025-06-20T08:00:00.000Z", "FAILED", null),
  ],
};

const NEW_VEHICLE: MotHistoryVehicle = {
  registration: "NE25WCR",
  make: "KIA",
  model: "EV3",
  manufactureYear: 2025,
  fuelType: "Electric",
  primaryColour: "White",
  registrationDate: "2025-03-14",
  manufactureDate: "2025-02-01",
  motTestDueDate: "2028-03-13",
  hasOutstandingRecall: "Unknown",
};

function test(
  completedDate: string,
  testResult: "PASSED" | "FAILED",
  expiryDate: string | null,
) {
  return {
    completedDate,
    testResult,
    expiryDate,
    odometerValue: "61234",
    odometerUnit: "MI",
    odometerResultType: "READ",
    motTestNumber: "123456789012",
    dataSource: "DVSA",
    defects:
      testResult === "FAILED"
        ? [
            {
              text: "Nearside front tyre tread depth below requirements",
              type: "MAJOR",
              dangerous: false,
            },
          ]
        : [],
  };
}

const open: MotStandIn[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((stand) => stand.close()));
});

async function setUp(options: { timeoutMs?: number } = {}) {
  const clock = { ms: START };
  const now = () => new Date(clock.ms);
  const stand = await startMotStandIn({
    now: () => clock.ms,
    vehicles: { AB12CDE: TESTED, NE25WCR: NEW_VEHICLE },
  });
  open.push(stand);
  const tokens = createTokenCache({
    tokenUrl: stand.tokenUrl,
    clientId: stand.clientId,
    clientSecret: stand.clientSecret,
    scope: stand.scope,
    now,
  });
  const source = createMotHistorySource({
    baseUrl: stand.baseUrl,
    apiKey: stand.apiKey,
    tokens,
    now,
    ...options,
  });
  return { stand, source, clock };
}

/** The look-up's SourceError, checked to carry no credential: no secret, key or token. */
async function failure(
  promise: Promise<unknown>,
  stand: MotStandIn,
): Promise<SourceError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SourceError);
  const text = `${String(error)} ${JSON.stringify(error)} ${String((error as Error).cause)}`;
  for (const secret of [stand.clientSecret, stand.apiKey, "stand-in-token-"])
    expect(text).not.toContain(secret);
  return error as SourceError;
}

const lookUps = (stand: MotStandIn) =>
  stand.requests.filter((request) => request.path.startsWith("/v1/"));

describe("the dvsa-mot-history source", () => {
  it("maps a vehicle's details and its passed tests' certificates, by UK test date", async () => {
    const { source } = await setUp();
    const answer = await source.lookUp("AB12CDE");
    expect(answer).toEqual({
      found: true,
      registration: "AB12CDE",
      answeredAt: new Date(START),
      vehicle: {
        make: "FORD",
        model: "FOCUS",
        color: "Blue",
        year: 2011,
        firstRegistered: "2012-03-02",
      },
      mot: {
        kind: "history",
        tests: [
          { testedOn: "2023-02-24", expiresOn: "2024-02-23" },
          { testedOn: "2024-02-27", expiresOn: "2025-02-26" },
          { testedOn: "2025-07-01", expiresOn: "2026-06-30" },
        ],
      },
    });
  });

  it("gives a new vehicle's first MOT due date and no tests", async () => {
    const { source } = await setUp();
    const answer = await source.lookUp("NE25WCR");
    expect(answer).toMatchObject({
      found: true,
      vehicle: {
        make: "KIA",
        model: "EV3",
        color: "White",
        year: 2025,
        firstRegistered: "2025-03-14",
      },
      mot: { kind: "history", tests: [], firstDue: "2028-03-13" },
    });
  });

  it("answers not found for a registration DVSA does not know (404)", async () => {
    const { source } = await setUp();
    expect(await source.lookUp("ZZ99ZZZ")).toEqual({
      found: false,
      registration: "ZZ99ZZZ",
      answeredAt: new Date(START),
    });
  });

  it("uses one token for a whole run of look-ups", async () => {
    const { stand, source } = await setUp();
    for (let i = 0; i < 10; i++)
      await source.lookUp(i % 2 ? "AB12CDE" : "NE25WCR");
    expect(stand.tokensIssued).toBe(1);
    expect(lookUps(stand).every((request) => request.status === 200)).toBe(
      true,
    );
  });

  it("takes a new token before the old one's lifetime runs out, with no refused look-up", async () => {
    const { stand, source, clock } = await setUp();
    await source.lookUp("AB12CDE");
    clock.ms += stand.tokenLifetimeSeconds * 1000 - 30_000;
    await source.lookUp("AB12CDE");
    expect(stand.tokensIssued).toBe(2);
    expect(lookUps(stand).map((request) => request.status)).toEqual([200, 200]);
  });

  for (const expiredTokenStatus of [401, 403] as const)
    it(`recovers from a token DVSA calls expired mid-run (${expiredTokenStatus}) with one new token and no failed check`, async () => {
      const { stand, source } = await setUp();
      stand.expiredTokenStatus = expiredTokenStatus;
      for (let i = 0; i < 3; i++) await source.lookUp("AB12CDE");
      stand.expireTokens();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => source.lookUp("AB12CDE")),
      );
      expect(answers.every((answer) => answer.found)).toBe(true);
      expect(stand.tokensIssued).toBe(2);
      expect(
        lookUps(stand).filter((request) => request.status === 200),
      ).toHaveLength(8);
    });

  it("calls a revoked API key a credentials error in words an operator can act on", async () => {
    const { stand, source } = await setUp();
    await source.lookUp("AB12CDE");
    stand.keyRevoked = true;
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error).toMatchObject({ kind: "credentials", status: 403 });
    expect(error.message).toMatch(/API key.*revoked.*new key/);
    // A key DVSA does not know is not cured by a new token: it does not ask for one.
    expect(stand.tokensIssued).toBe(1);
  });

  it("gives up after one new token when DVSA refuses that one too", async () => {
    const { stand, source } = await setUp();
    await source.lookUp("AB12CDE");
    stand.tokenLifetimeSeconds = 0;
    stand.expireTokens();
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error).toMatchObject({ kind: "credentials", status: 401 });
    expect(error.message).toMatch(
      /refused the access token even after a new one/,
    );
    expect(stand.tokensIssued).toBe(2);
  });

  it("calls an expired client secret a credentials error", async () => {
    const { stand, source } = await setUp();
    stand.secretExpired = true;
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error.kind).toBe("credentials");
    expect(error.message).toMatch(/client secret.*expired/);
  });

  it("calls a 429 quota, with DVSA's Retry-After", async () => {
    const { stand, source } = await setUp();
    stand.failure = { status: 429, retryAfter: "7" };
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error).toMatchObject({
      kind: "quota",
      status: 429,
      retryAfterMs: 7000,
    });
  });

  it("says when the daily allowance is spent (MOTH-RL-01)", async () => {
    const { stand, source } = await setUp();
    stand.failure = { status: 429, errorCode: "MOTH-RL-01" };
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error).toMatchObject({ kind: "quota", retryAfterMs: undefined });
    expect(error.message).toMatch(/daily allowance/);
  });

  it("calls a 500 unavailable", async () => {
    const { stand, source } = await setUp();
    stand.failure = { status: 500 };
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error).toMatchObject({ kind: "unavailable", status: 500 });
  });

  it("calls a 503 maintenance, with its Retry-After", async () => {
    const { stand, source } = await setUp();
    stand.failure = { status: 503, retryAfter: "120" };
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error).toMatchObject({
      kind: "maintenance",
      status: 503,
      retryAfterMs: 120_000,
    });
  });

  it("calls an answer that does not come in time unavailable", async () => {
    const { stand, source } = await setUp({ timeoutMs: 50 });
    stand.delayMs = 2_000;
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error.kind).toBe("unavailable");
    expect(error.message).toMatch(/did not answer in time/);
  });

  it("refuses a body that is not JSON as malformed", async () => {
    const { stand, source } = await setUp();
    stand.failure = { status: "malformed", body: "<html>gateway</html>" };
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error.kind).toBe("malformed");
  });

  it("refuses a vehicle whose test dates are not the documented shape as malformed", async () => {
    const { stand, source } = await setUp();
    const broken = {
      ...TESTED,
      motTests: [
        {
          ...test("2024-02-27T10:00:00.000Z", "PASSED", "2025-02-26"),
          completedDate: "27/02/2024",
        },
      ],
    };
    stand.failure = { status: "malformed", body: JSON.stringify(broken) };
    const error = await failure(source.lookUp("AB12CDE"), stand);
    expect(error.kind).toBe("malformed");
    expect(error.message).toContain("motTests.0.completedDate");
  });

  it("rejects with the caller's reason when the caller gives up", async () => {
    const { stand, source } = await setUp();
    stand.delayMs = 2_000;
    const controller = new AbortController();
    const reason = new Error("check cancelled");
    const lookUp = source.lookUp("AB12CDE", controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    await expect(lookUp).rejects.toBe(reason);
  });
});
