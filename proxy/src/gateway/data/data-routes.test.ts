// The admins' data page through the proxy: forwarded with the proxy's key to admins only, held
// to the contract, and an import's refused rows as a formula-safe CSV.
import { afterEach, describe, expect, it } from "vitest";
import { ProblemSchema } from "@vics/shared";
import { DataSourcesSchema } from "@vics/shared/data-admin";
import { ADMIN_REGISTERS_PATH } from "@vics/shared/registers-admin";
import { createTestService, type TestService } from "@vics/service/testing";
import {
  createTestProxy,
  fakeUpstream,
  TEST_API_KEY,
} from "../../testing/index.ts";

const json = (body: unknown) =>
  new Response(JSON.stringify(body), {
    headers: { "Content-Type": "application/json" },
  });

const REJECTS = {
  importId: 7,
  fileName: "policies.csv",
  rejectedRows: 2,
  rejects: [
    {
      line: 3,
      column: "registration",
      value: "=HYPERLINK(1)",
      reason: "Not a UK registration.",
    },
    {
      line: 9,
      column: "valid_to",
      value: "31/02/2026",
      reason: "There is no 31 February.",
    },
  ],
  truncated: false,
};

describe("the data page's routes", () => {
  it("asks the service with the proxy's key and passes its answer to an admin", async () => {
    const upstream = fakeUpstream(() =>
      json({
        dataAsOf: { insurance: "2026-11-24T06:00:00.000Z" },
        synthetic: false,
      }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request("/api/admin/data/sources");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      dataAsOf: { insurance: "2026-11-24T06:00:00.000Z" },
      synthetic: false,
    });
    const sent = upstream.requests[0];
    expect(new URL(sent?.url ?? "").pathname).toBe("/v1/data/sources");
    expect(sent?.headers.get("X-API-Key")).toBe(TEST_API_KEY);
  });

  // The one place the admin pages' refusal is shown through the whole proxy (the data and the
  // sources pages alike); ports.test.ts shows the gateway asking the role port for it.
  it.each(["staff", "fleet"] as const)(
    "refuses %s on every admin data route, and asks the service nothing",
    async (role) => {
      const upstream = fakeUpstream(() => json({}));
      const { app } = createTestProxy({ fetch: upstream.fetch, role });
      for (const path of [
        "/api/admin/data/sources",
        "/api/admin/data/imports",
        "/api/admin/data/imports/7/rejects.csv",
        ADMIN_REGISTERS_PATH,
      ]) {
        const response = await app.request(path);
        expect(response.status).toBe(403);
        expect(ProblemSchema.parse(await response.json()).code).toBe(
          "ROLE_REQUIRED",
        );
      }
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("gives an import's refused rows as a CSV to download, nothing in it run as a formula", async () => {
    const upstream = fakeUpstream(() => json(REJECTS));
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request("/api/admin/data/imports/7/rejects.csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="import-7-rejects.csv"',
    );
    expect(new URL(upstream.requests[0]?.url ?? "").pathname).toBe(
      "/v1/data/imports/7/rejects",
    );
    // Read with its byte-order mark, which Excel needs to read the file as UTF-8.
    const lines = new TextDecoder("utf-8", { ignoreBOM: true })
      .decode(await response.arrayBuffer())
      .split("\r\n");
    expect(lines[0]).toBe("\uFEFFLine,Column,Value,Reason");
    expect(lines[1]).toBe(
      `3,registration,"'=HYPERLINK(1)",Not a UK registration.`,
    );
    expect(lines[2]).toBe("9,valid_to,31/02/2026,There is no 31 February.");
  });

  it("answers an id that is not one itself, and an off-contract answer with a 502", async () => {
    const upstream = fakeUpstream(() => json({ rejects: "nope" }));
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const bad = await app.request(
      "/api/admin/data/imports/..%2F..%2Fkeys/rejects.csv",
    );
    expect(bad.status).toBe(404);
    expect(upstream.requests).toHaveLength(0);
    const broken = await app.request("/api/admin/data/imports/7/rejects.csv");
    expect(broken.status).toBe(502);
  });
});

describe("the data page's routes to the real service", () => {
  let service: TestService;
  afterEach(() => service.close());

  it("says how fresh the seeded fleet's sources are, with the proxy's internal key", async () => {
    const now = new Date("2026-03-10T12:00:00.000Z");
    service = await createTestService({ now: () => now });
    const key = await service.createKey("internal", "proxy");
    const { app } = createTestProxy({
      apiKey: key,
      fetch: (input, init) => service.app.fetch(new Request(input, init)),
    });
    const sources = DataSourcesSchema.parse(
      await (await app.request("/api/admin/data/sources")).json(),
    );
    expect(sources).toMatchObject({
      since: "2026-03-10T00:00:00.000Z",
      synthetic: true,
      dataAsOf: {
        insurance: "2026-03-10T00:00:00.000Z",
        fines: "2026-03-10T00:00:00.000Z",
      },
    });
    const imports = await app.request("/api/admin/data/imports");
    expect(await imports.json()).toEqual({ imports: [] });
  });
});
