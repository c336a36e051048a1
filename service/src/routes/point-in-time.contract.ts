// Point-in-time answers (docs/decisions/041-point-in-time-answers.md) against a history built
// here by imports at chosen instants, run on both engines by the import tests. The checks are
// asked through the app, as a client asks them.
import {
  API_KEY_HEADER,
  BulkComplianceResultSchema,
  BulkResultSchema,
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  ProblemSchema,
} from "@vics/shared";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import {
  type ImportHarness,
  importer,
  POLICIES,
  policy,
  vehicle,
  VEHICLES,
} from "../testing/import-files.ts";
import { issueApiKey } from "../keys/api-key.ts";
import { testAppDeps } from "../testing/index.ts";

/** The service's clock: every question is asked on 27 November 2026. */
const NOW = new Date("2026-11-27T12:00:00.000Z");

export function pointInTimeContract(open: () => Promise<ImportHarness>) {
  let harness: ImportHarness;
  let ask: (path: string, body?: unknown) => Promise<Response>;
  const files = importer(() => harness, "2026-06-01T09:00:00Z");

  beforeEach(async () => {
    harness = await open();
    // 1 June: the vehicles, their policies and their tax.
    files.at("2026-06-01T09:00:00Z");
    await files.run("vehicles", [
      VEHICLES,
      vehicle("CN19LAT"),
      vehicle("LP20GAP"),
      vehicle("ST26NEW"),
      vehicle("CK20CLK"),
    ]);
    await files.run("policies", [
      POLICIES,
      policy("CN19LAT", "POL-A", "2026-12-31", "2026-01-01"),
      policy("LP20GAP", "POL-1", "2026-05-31", "2025-06-01"),
      policy("LP20GAP", "POL-2", "2027-06-09", "2026-06-10"),
      policy("ST26NEW", "POL-S", "2027-06-19", "2026-06-20"),
      policy("CK20CLK", "POL-C", "2026-10-25", "2025-10-26"),
    ]);
    await files.run("tax", [
      "registration,status,due_date",
      "CN19LAT,taxed,2027-01-31",
    ]);
    // 00:30 BST on 12 June (still 11 June in UTC): CN19LAT's cover was cancelled from 4 June,
    // reported eight days late, and it was declared off the road.
    files.at("2026-06-11T23:30:00Z");
    await files.run("policies", [
      POLICIES,
      policy("CN19LAT", "POL-A", "2026-06-04", "2026-01-01"),
    ]);
    await files.run("tax", ["registration,status,due_date", "CN19LAT,SORN,"], {
      dataAsOf: new Date("2026-06-11T23:00:00Z"),
    });
    const store = harness.store;
    const key = (await issueApiKey(store, "internal", "pit", NOW)).key;
    const app = createApp(
      testAppDeps(store, { now: () => NOW, sandbox: false }),
    );
    ask = (path, body) =>
      Promise.resolve(
        app.fetch(
          new Request(`http://service.test${path}`, {
            method: body === undefined ? "GET" : "POST",
            headers: {
              [API_KEY_HEADER]: key,
              ...(body === undefined
                ? {}
                : { "Content-Type": "application/json" }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        ),
      );
  });

  const insurance = async (query: string) => {
    const response = await ask(query);
    expect(response.status, await response.clone().text()).toBe(200);
    return InsuranceRecordSchema.parse(await response.json());
  };
  const refusal = async (path: string, body?: unknown) => {
    const response = await ask(path, body);
    expect(response.status).toBe(400);
    return ProblemSchema.parse(await response.json());
  };

  it("a cancellation reported late: not insured on the day from what is known now, insured as VICS knew it then", async () => {
    const now = await insurance(
      "/v1/vehicle/CN19LAT/insurance?date=2026-06-08",
    );
    expect(now).toMatchObject({
      insured: false,
      policy: { number: "POL-A", validTo: "2026-06-04" },
      asOf: { date: "2026-06-08", knownAt: NOW.toISOString() },
    });
    const then = await insurance(
      "/v1/vehicle/CN19LAT/insurance?date=2026-06-08&asKnownAt=2026-06-09T12:00:00Z",
    );
    expect(then).toMatchObject({
      insured: true,
      policy: { number: "POL-A", validTo: "2026-12-31" },
      asOf: { date: "2026-06-08", knownAt: "2026-06-09T12:00:00.000Z" },
    });
    // The answer a check gave at an instant, reproduced: that instant's UK date, as known then.
    const reproduced = await insurance(
      "/v1/vehicle/CN19LAT/insurance?asKnownAt=2026-06-09T12:00:00%2B01:00",
    );
    expect(reproduced).toMatchObject({
      insured: true,
      asOf: { date: "2026-06-09", knownAt: "2026-06-09T11:00:00.000Z" },
    });
  });

  it("a policy that starts on the day asked covers it; the day before, none is shown", async () => {
    expect(
      await insurance("/v1/vehicle/ST26NEW/insurance?date=2026-06-20"),
    ).toMatchObject({ insured: true, policy: { number: "POL-S" } });
    expect(
      await insurance("/v1/vehicle/ST26NEW/insurance?date=2026-06-19"),
    ).toMatchObject({ insured: false, policy: null });
  });

  it("a lapse between two policies: the first's last day, the gap, the second's first day", async () => {
    const on = async (date: string) =>
      insurance(`/v1/vehicle/LP20GAP/insurance?date=${date}`);
    expect(await on("2026-05-31")).toMatchObject({
      insured: true,
      policy: { number: "POL-1" },
    });
    expect(await on("2026-06-05")).toMatchObject({
      insured: false,
      policy: { number: "POL-1", validTo: "2026-05-31" },
    });
    expect(await on("2026-06-10")).toMatchObject({
      insured: true,
      policy: { number: "POL-2" },
    });
  });

  it("the UK date across the clock change: an instant's day is London's, and so is the end of a day", async () => {
    // 00:30 BST on 25 October is still the 24th in UTC; 23:30 GMT on the 25th is the 25th.
    for (const instant of ["2026-10-24T23:30:00Z", "2026-10-25T23:30:00Z"])
      expect(
        await insurance(`/v1/vehicle/CK20CLK/insurance?asKnownAt=${instant}`),
      ).toMatchObject({ insured: true, asOf: { date: "2026-10-25" } });
    expect(
      await insurance(
        "/v1/vehicle/CK20CLK/insurance?asKnownAt=2026-10-26T00:30:00Z",
      ),
    ).toMatchObject({ insured: false, asOf: { date: "2026-10-26" } });
    // The SORN came at 00:30 BST on 12 June: on 11 June, a UK day that ended at 23:00 UTC,
    // the vehicle was still taxed, from what is known now; on 12 June it was not.
    const compliance = async (date: string) => {
      const response = await ask(`/v1/compliance/CN19LAT?date=${date}`);
      expect(response.status).toBe(200);
      return ComplianceRecordSchema.parse(await response.json());
    };
    expect((await compliance("2026-06-11")).details?.tax).toEqual({
      status: "taxed",
      dueDate: "2027-01-31",
    });
    expect((await compliance("2026-06-12")).details?.tax).toEqual({
      status: "sorn",
      dueDate: null,
    });
  });

  it("the bulk checks take date and asKnownAt in the body, and say which they answered", async () => {
    const response = await ask("/v1/vehicle/bulk-insurance", {
      registrations: ["CN19LAT", "LP20GAP", "NOPE1"],
      date: "2026-06-08",
      asKnownAt: "2026-06-09T12:00:00Z",
    });
    expect(response.status).toBe(200);
    const result = BulkResultSchema.parse(await response.json());
    // CN19LAT as known before its cancellation; LP20GAP between its two policies.
    expect(result.results.map((item) => item.insured)).toEqual([
      true,
      false,
      false,
    ]);
    expect(result.asOf).toEqual({
      date: "2026-06-08",
      knownAt: "2026-06-09T12:00:00.000Z",
    });
    const compliance = BulkComplianceResultSchema.parse(
      await (
        await ask("/v1/vehicle/bulk-compliance", {
          registrations: ["CN19LAT"],
          date: "2026-06-08",
        })
      ).json(),
    );
    expect(compliance.results[0]?.checks).toMatchObject({
      insuranceValid: false,
      roadTaxPaid: true,
    });
  });

  it("says how fresh each source is, and says nothing of a point in time nobody asked for", async () => {
    const plain = await insurance("/v1/vehicle/LP20GAP/insurance");
    expect(plain.asOf).toBeUndefined();
    expect(plain.dataAsOf).toEqual({ insurance: expect.any(String) });
    expect(plain.vehicle.firstRegistered).toBe("2019-03-01");
    const response = await ask("/v1/compliance/CN19LAT");
    const record = ComplianceRecordSchema.parse(await response.json());
    expect(record.dataAsOf).toEqual({
      insurance: plain.dataAsOf?.insurance,
      tax: "2026-06-11T23:00:00.000Z",
    });
    expect(record.asOf).toBeUndefined();
  });

  it("refuses in words a date or an instant outside the kept history, in the future, or not written as one", async () => {
    const info = await harness.store.dataInfo();
    expect(info.historyFrom).toBe("2025-06-01");
    expect(
      await refusal("/v1/vehicle/LP20GAP/insurance?date=2026-11-28"),
    ).toMatchObject({
      code: "DATE_OUT_OF_RANGE",
      detail:
        "date 2026-11-28 is in the future: today in the UK is 2026-11-27. Ask about today or a day before it.",
    });
    expect(
      await refusal("/v1/compliance/LP20GAP?date=2025-05-31"),
    ).toMatchObject({
      code: "DATE_OUT_OF_RANGE",
      detail:
        "date 2025-05-31 is before VICS's records begin, on 1 June 2025 (2025-06-01).",
    });
    expect(
      await refusal(
        "/v1/vehicle/LP20GAP/insurance?asKnownAt=2026-05-01T00:00:00Z",
      ),
    ).toMatchObject({
      code: "DATE_OUT_OF_RANGE",
      detail: expect.stringContaining("is before VICS held any data"),
    });
    expect(
      await refusal(
        "/v1/vehicle/LP20GAP/insurance?asKnownAt=2026-11-27T12:00:01Z",
      ),
    ).toMatchObject({ code: "DATE_OUT_OF_RANGE" });
    expect(
      await refusal("/v1/vehicle/LP20GAP/insurance?date=2026-02-30"),
    ).toMatchObject({
      code: "MALFORMED_REQUEST",
      detail:
        'date must be a calendar date written YYYY-MM-DD, like 2026-11-24, not "2026-02-30".',
    });
    expect(
      await refusal("/v1/compliance/LP20GAP?asKnownAt=2026-06-09"),
    ).toMatchObject({ code: "MALFORMED_REQUEST" });
    expect(
      await refusal("/v1/vehicle/bulk-insurance", {
        registrations: ["LP20GAP"],
        date: "08/06/2026",
      }),
    ).toMatchObject({ code: "MALFORMED_REQUEST" });
    expect(
      await refusal("/v1/vehicle/bulk-compliance", {
        registrations: ["LP20GAP"],
        asKnownAt: 5,
      }),
    ).toMatchObject({ detail: "asKnownAt must be a string" });
  });

  describe("a vehicle added after the instant asked", () => {
    it("is not found as VICS knew it then", async () => {
      files.at("2026-07-01T09:00:00Z");
      await files.run("vehicles", [VEHICLES, vehicle("NW26ADD")]);
      const response = await ask(
        "/v1/vehicle/NW26ADD/insurance?asKnownAt=2026-06-15T00:00:00Z",
      );
      expect(response.status).toBe(404);
      expect((await ask("/v1/vehicle/NW26ADD/insurance")).status).toBe(200);
    });
  });
}
