// The VES adapter against DVLA's own published document (Prism, request validation on) and
// against our stand-in of DVLA's test environment, which answers its documented registrations.
import { freePort } from "@vics/shared/testing/free-port";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
} from "vitest";
import { createVesSource, type VesSourceOptions } from "./dvla-ves.ts";
import { VesVehicleSchema } from "./dvla-ves-vehicle.ts";
import { SourceError, type SourceAnswer } from "./source.ts";
import {
  type PrismMock,
  prismViolations,
  startPrism,
  VES_OPENAPI_DOCUMENT,
} from "../testing/sources/prism.ts";
import {
  startVesStandIn,
  type VesStandIn,
} from "../testing/sources/ves-stand-in.ts";

const KEY = "ves-key-4f9c2a7e-not-for-messages";

/** The rejection of `lookUp`, which must be a SourceError. */
async function failure(answer: Promise<SourceAnswer>): Promise<SourceError> {
  const error: unknown = await answer.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

describe("against Prism on DVLA's published Vehicle Enquiry API document", () => {
  let prism: PrismMock;
  beforeAll(async () => {
    prism = await startPrism(VES_OPENAPI_DOCUMENT);
  }, 90_000);
  afterAll(() => prism?.close());

  /** A fetch that keeps the violations Prism found in each request, and can ask for a status. */
  function recording(status?: number) {
    const violations: string[][] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (status !== undefined) headers.set("Prefer", `code=${status}`);
      const response = await globalThis.fetch(input, { ...init, headers });
      violations.push(
        prismViolations(response)
          .filter((violation) => violation.location[0] === "request")
          .map((violation) => violation.message),
      );
      return response;
    };
    const source = createVesSource({ baseUrl: prism.url, apiKey: KEY, fetch });
    return { source, violations };
  }

  it("validates requests: one without x-api-key gets Prism's 400 and a violation", async () => {
    const response = await fetch(`${prism.url}/v1/vehicles`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ registrationNumber: "WN67DSO" }),
    });
    expect(response.status).toBe(400);
    expect(prismViolations(response)).toContainEqual(
      expect.objectContaining({
        location: ["request", "header"],
        message: "Request header must have required property 'x-api-key'",
      }),
    );
  });

  it("sends requests the document allows, and refuses Prism's 200, whose dates are date-times, as malformed", async () => {
    const { source, violations } = recording();
    const error = await failure(source.lookUp("WN67DSO"));
    expect(violations).toEqual([[]]);
    expect(error).toMatchObject({ kind: "malformed", status: 200 });
    // Exactly the four dates: the rest of Prism's vehicle is what the register sends.
    const issues = (error.cause as { issues: { path: string[] }[] }).issues;
    expect(issues.map((issue) => issue.path.join(".")).sort()).toEqual([
      "artEndDate",
      "dateOfLastV5CIssued",
      "motExpiryDate",
      "taxDueDate",
    ]);
    expect(error.message).toContain("taxDueDate");
  });

  it("reads Prism's vehicle once its date-times are cut to the register's dates", async () => {
    const response = await fetch(`${prism.url}/v1/vehicles`, {
      method: "POST",
      headers: { "x-api-key": KEY, "Content-Type": "application/json" },
      body: JSON.stringify({ registrationNumber: "WN67DSO" }),
    });
    const body = (await response.text()).replace(
      /"(\d{4}-\d{2}-\d{2})T[\d:.]+Z"/g,
      '"$1"',
    );
    expect(VesVehicleSchema.safeParse(JSON.parse(body)).success).toBe(true);
  });

  it.each([
    [404, "found: false"],
    [400, "refused"],
    [500, "unavailable"],
    [503, "maintenance"],
  ] as const)(
    "reads the document's %i answer as %s, from a request Prism allows",
    async (status, kind) => {
      const { source, violations } = recording(status);
      const answer = source.lookUp("WN67DSO");
      if (kind === "found: false")
        expect(await answer).toMatchObject({ found: false });
      else
        expect(await failure(answer)).toMatchObject({
          kind,
          status,
          message: expect.stringContaining(
            "Invalid format for field - vehicle registration number",
          ),
        });
      expect(violations).toEqual([[]]);
    },
  );
});

describe("against the stand-in of DVLA's test environment", () => {
  const clock = () => new Date("2026-11-29T10:15:00Z");
  let standIn: VesStandIn;
  beforeEach(async () => {
    standIn = await startVesStandIn({ apiKey: KEY, now: clock });
  });
  afterEach(() => standIn.close());
  const source = (options: Partial<VesSourceOptions> = {}) =>
    createVesSource({
      baseUrl: standIn.url,
      apiKey: KEY,
      now: clock,
      ...options,
    });
  const ford2019 = {
    make: "FORD",
    color: "RED",
    year: 2019,
    firstRegistered: "2019-03-01",
  };

  it.each([
    {
      registration: "AA19AAA",
      tax: { sorn: false, dueDate: "2027-11-29" },
      mot: { kind: "expiry", expiresOn: null },
      vehicle: ford2019,
    },
    {
      registration: "AA19EEE",
      tax: { sorn: false, dueDate: "2027-11-29" },
      mot: { kind: "expiry", expiresOn: null },
      vehicle: ford2019,
    },
    {
      registration: "AA19MOT",
      tax: { sorn: false, dueDate: "2027-11-29" },
      mot: { kind: "expiry", expiresOn: "2027-11-29" },
      vehicle: ford2019,
    },
    {
      registration: "AA19SRN",
      tax: { sorn: true, dueDate: null },
      vehicle: ford2019,
    },
    {
      registration: "L2WPS",
      tax: { sorn: false, dueDate: "2026-08-29" },
      vehicle: { make: "KAWASAKI", color: "BLACK" },
    },
    {
      registration: "AA19PPP",
      tax: { sorn: false, dueDate: "2027-11-29" },
      vehicle: {
        make: "FORD",
        color: "RED",
        year: 2016,
        firstRegistered: "2016-09-01",
      },
    },
  ])("reads test registration $registration", async (expected) => {
    expect(await source().lookUp(expected.registration)).toEqual({
      found: true,
      answeredAt: clock(),
      ...expected,
    });
  });

  it("sends POST /v1/vehicles with the registration as parsed, the key and JSON headers", async () => {
    expect(await source().lookUp("AA19AAA")).toMatchObject({
      found: true,
      registration: "AA19AAA",
    });
    expect(standIn.requests).toEqual([
      expect.objectContaining({
        registration: "AA19AAA",
        keyAccepted: true,
        contentType: "application/json",
        accept: "application/json",
        status: 200,
      }),
    ]);
  });

  it("reads a vehicle only the stand-in knows: MOT not valid, not taxed for road use", async () => {
    standIn.vehicles.set("AB12CDE", {
      registrationNumber: "AB12CDE",
      taxStatus: "Not Taxed for on Road Use",
      motStatus: "Not valid",
      motExpiryDate: "2026-01-31",
    });
    expect(await source().lookUp("AB12CDE")).toEqual({
      found: true,
      registration: "AB12CDE",
      answeredAt: clock(),
      vehicle: {},
      tax: { sorn: false, dueDate: null },
      mot: { kind: "expiry", expiresOn: "2026-01-31" },
    });
  });

  it.each([
    ["Untaxed", "2027-03-31", null],
    ["Not Taxed for on Road Use", "2027-03-31", null],
    ["Untaxed", "2026-11-29", null],
    ["Untaxed", "2026-11-28", "2026-11-28"],
    ["Not Taxed for on Road Use", "2026-08-01", "2026-08-01"],
  ] as const)(
    "keeps %s's due date %s only when it is before the day of the answer (a cancelled tax keeps a future one): %s",
    async (taxStatus, taxDueDate, dueDate) => {
      standIn.vehicles.set("AB12CDE", {
        registrationNumber: "AB12CDE",
        taxStatus,
        taxDueDate,
      });
      expect(await source().lookUp("AB12CDE")).toMatchObject({
        tax: { sorn: false, dueDate },
      });
    },
  );

  it("takes the day of the answer in the UK: 23:30 UTC on 30 June is 1 July", async () => {
    standIn.vehicles.set("AB12CDE", {
      registrationNumber: "AB12CDE",
      taxStatus: "Untaxed",
      taxDueDate: "2026-06-30",
    });
    const lateJune = () => new Date("2026-06-30T23:30:00Z");
    expect(await source({ now: lateJune }).lookUp("AB12CDE")).toMatchObject({
      answeredAt: lateJune(),
      tax: { sorn: false, dueDate: "2026-06-30" },
    });
  });

  it("gives no tax fact for Taxed without a due date, and no MOT fact without MOT fields", async () => {
    standIn.vehicles.set("AB12CDE", {
      registrationNumber: "AB12CDE",
      taxStatus: "Taxed",
    });
    const answer = await source().lookUp("AB12CDE");
    expect(answer).not.toHaveProperty("tax");
    expect(answer).not.toHaveProperty("mot");
  });

  it("never puts the plate in its words: they are logged and shown to admins", async () => {
    for (const plate of ["ER19BAD", "ER19THR", "ER19ERR", "ER19MNT"])
      expect((await failure(source().lookUp(plate))).message).not.toContain(
        plate,
      );
  });

  it("refuses an answer about another vehicle as malformed", async () => {
    standIn.vehicles.set("AB12CDE", { registrationNumber: "ZZ99ZZZ" });
    expect(await failure(source().lookUp("AB12CDE"))).toMatchObject({
      kind: "malformed",
      message: expect.stringContaining("another vehicle"),
    });
  });

  it("answers found: false for ER19NFD (404)", async () => {
    expect(await source().lookUp("ER19NFD")).toEqual({
      found: false,
      registration: "ER19NFD",
      answeredAt: clock(),
    });
  });

  it.each([
    ["ER19BAD", "refused", 400, undefined, "Invalid format for field"],
    ["ER19THR", "quota", 429, 30_000, "wait 30 s"],
    ["ER19ERR", "unavailable", 500, undefined, "System Error occurred"],
    ["ER19MNT", "maintenance", 503, 120_000, "down for maintenance"],
  ] as const)(
    "turns %s into a SourceError of kind %s (%i)",
    async (registration, kind, status, retryAfterMs, words) => {
      const error = await failure(source().lookUp(registration));
      expect(error).toMatchObject({
        source: "dvla-ves",
        kind,
        status,
        retryAfterMs,
      });
      expect(error.message).toContain(words);
    },
  );

  it("turns a wrong or revoked key (403) into a credentials error naming the key's file", async () => {
    standIn.setApiKey("the-key-dvla-issued-now");
    const error = await failure(source().lookUp("AA19AAA"));
    expect(error).toMatchObject({ kind: "credentials", status: 403 });
    expect(error.message).toContain("DVLA_VES_API_KEY_FILE");
    expect(error.message).toContain("wrong or revoked");
    expect(standIn.requests[0]?.keyAccepted).toBe(false);
  });

  it("turns a body that is not JSON into a malformed error", async () => {
    standIn.setMalformed(true);
    expect(await failure(source().lookUp("AA19AAA"))).toMatchObject({
      kind: "malformed",
      status: 200,
    });
  });

  it("turns the stand-in's 429 past its rate into a quota error with its Retry-After", async () => {
    standIn.setRate(1);
    await source().lookUp("AA19AAA");
    expect(await failure(source().lookUp("AA19AAA"))).toMatchObject({
      kind: "quota",
      retryAfterMs: 1000,
    });
  });

  it("gives up after its time limit as unavailable", async () => {
    standIn.delayMs = 10_000;
    const error = await failure(source({ timeoutMs: 50 }).lookUp("AA19AAA"));
    expect(error).toMatchObject({ kind: "unavailable", status: undefined });
    expect(error.message).toContain("did not answer within 0.05 s");
  });

  it("rejects with the caller's own reason when the caller aborts", async () => {
    standIn.delayMs = 10_000;
    const controller = new AbortController();
    const reason = new Error("the check was cancelled");
    const answer = source().lookUp("AA19AAA", controller.signal);
    await vi.waitFor(() => expect(standIn.requests).toHaveLength(1));
    controller.abort(reason);
    await expect(answer).rejects.toBe(reason);
    await expect(
      source().lookUp("AA19AAA", AbortSignal.abort(reason)),
    ).rejects.toBe(reason);
  });

  it("turns a register it cannot reach into an unavailable error", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const error = await failure(source({ baseUrl: closed }).lookUp("AA19AAA"));
    expect(error).toMatchObject({ kind: "unavailable" });
    expect(error.message).toContain("could not be reached");
  });

  it("never puts the key in a message, even when the provider echoes it", async () => {
    const messages: string[] = [];
    for (const registration of ["ER19BAD", "ER19THR", "ER19ERR", "ER19MNT"])
      messages.push((await failure(source().lookUp(registration))).message);
    standIn.setApiKey("another");
    messages.push((await failure(source().lookUp("AA19AAA"))).message);
    const echo = createVesSource({
      baseUrl: standIn.url,
      apiKey: KEY,
      fetch: async () =>
        Response.json(
          { errors: [{ title: "Forbidden", detail: `key ${KEY} refused` }] },
          { status: 403 },
        ),
    });
    const echoed = (await failure(echo.lookUp("AA19AAA"))).message;
    expect(echoed).toContain("key [key] refused");
    messages.push(echoed);
    for (const message of messages) expect(message).not.toContain(KEY);
  });
});
