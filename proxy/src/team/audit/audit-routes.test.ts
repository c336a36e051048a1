import Papa from "papaparse";
import { AUDIT_CSV_CUT_OFF } from "@vics/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { csvCells, liveFormulaCells } from "@vics/shared/testing/csv-formulas";
import type { NewAuditEvent } from "../store/proxy-store.ts";
import { signedInApp } from "../../testing/signed-in-app.ts";
import { registerAuditRoutes } from "./audit-routes.ts";

let harness: ReturnType<typeof signedInApp>;
let cookie: string;
let admin: string;
beforeEach(async () => {
  harness = signedInApp();
  registerAuditRoutes(harness.app, harness.store);
  const signedIn = await harness.signedIn("admin");
  cookie = signedIn.cookie;
  admin = signedIn.user.email;
});
afterEach(() => harness.store.close());

const event = (change: Partial<NewAuditEvent>): NewAuditEvent => ({
  at: Date.parse("2026-07-01T12:00:00Z"),
  userId: "u1",
  userEmail: "ann@example.org",
  action: "check.insurance",
  registrations: ["AB12CDE"],
  outcome: "200",
  requestId: "r",
  clientAddress: "10.0.0.1",
  ...change,
});
const get = (path: string, withCookie = cookie) =>
  harness.app.request(path, { headers: { Cookie: withCookie } });
interface Page {
  events: { requestId: string; at: string; registrations: string[] }[];
  next: number | null;
}

describe("the audit search", () => {
  it("finds a registration however it is typed, newest first, a page at a time", async () => {
    for (let i = 0; i < 5; i++)
      await harness.store.appendAudit(
        event({
          requestId: `r${i}`,
          at: Date.parse("2026-07-01T12:00:00Z") + i,
        }),
      );
    await harness.store.appendAudit(
      event({ requestId: "other", registrations: ["XY99ZZZ"] }),
    );
    const first = (await (
      await get("/api/admin/audit?registration=ab12%20cde&limit=3")
    ).json()) as Page;
    expect(first.events.map((e) => e.requestId)).toEqual(["r4", "r3", "r2"]);
    expect(first.events[0]!.at).toBe("2026-07-01T12:00:00.004Z");
    const second = (await (
      await get(
        `/api/admin/audit?registration=AB12CDE&limit=3&before=${first.next}`,
      )
    ).json()) as Page;
    expect(second.events.map((e) => e.requestId)).toEqual(["r1", "r0"]);
    expect(second.next).toBeNull();
  });

  it("takes a cursor of up to 16 digits (a PostgreSQL id from 2045), refusing one past a safe integer", async () => {
    await harness.store.appendAudit(event({ requestId: "one" }));
    const far = (await (
      await get(
        "/api/admin/audit?registration=AB12CDE&limit=3&before=1000000000000000",
      )
    ).json()) as Page;
    expect(far.events.map((e) => e.requestId)).toEqual(["one"]);
    for (const before of ["9007199254740993", "12345678901234567", "1e5"]) {
      const bad = await get(`/api/admin/audit?before=${before}`);
      expect(bad.status, before).toBe(400);
    }
  });

  it("takes whole UK days, right across midnight in summer time", async () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London.
    await harness.store.appendAudit(
      event({ requestId: "july", at: Date.parse("2026-06-30T23:30:00Z") }),
    );
    await harness.store.appendAudit(
      event({ requestId: "june", at: Date.parse("2026-06-30T22:30:00Z") }),
    );
    await harness.store.appendAudit(
      event({ requestId: "august", at: Date.parse("2026-07-31T23:30:00Z") }),
    );
    const page = (await (
      await get("/api/admin/audit?from=2026-07-01&to=2026-07-31")
    ).json()) as Page;
    expect(page.events.map((e) => e.requestId)).toEqual(["july"]);
    const bad = await get("/api/admin/audit?from=01/07/2026");
    expect(bad.status).toBe(400);
  });

  it("finds by user email, and nothing for an unknown user", async () => {
    const { user } = await harness.signedIn("staff", "bob@example.org");
    await harness.store.appendAudit(
      event({ userId: user.id, userEmail: user.email, requestId: "bob" }),
    );
    await harness.store.appendAudit(event({ requestId: "ann" }));
    const page = (await (
      await get("/api/admin/audit?user=BOB@example.org")
    ).json()) as Page;
    expect(page.events.map((e) => e.requestId)).toEqual(["bob"]);
    const none = (await (
      await get("/api/admin/audit?user=nobody@example.org")
    ).json()) as Page;
    expect(none.events).toEqual([]);
  });

  it("finds the failed sign-ins of an email that has no account", async () => {
    await harness.store.appendAudit(
      event({
        userId: null,
        userEmail: "nobody@example.org",
        action: "sign-in.failed",
        registrations: [],
        outcome: "wrong",
        requestId: "guess",
      }),
    );
    await harness.store.appendAudit(event({ requestId: "ann" }));
    const page = (await (
      await get("/api/admin/audit?user=%20Nobody@Example.org")
    ).json()) as Page;
    expect(page.events.map((e) => e.requestId)).toEqual(["guess"]);
  });

  it("records who read the log and who downloaded it: one event per search read again", async () => {
    await get("/api/admin/audit?registration=AB12CDE");
    await get("/api/admin/audit?registration=AB12CDE");
    await get("/api/admin/audit?user=ann@example.org");
    await get("/api/admin/audit.csv?from=2026-07-01");
    const events = await harness.store.searchAudit({ limit: 10 });
    expect(
      events.map((e) => [e.action, e.userEmail, e.count, e.detail]),
    ).toEqual([
      ["audit.export", admin, undefined, { from: "2026-07-01", events: 2 }],
      ["audit.read", admin, 1, { user: "ann@example.org" }],
      ["audit.read", admin, 2, { registration: "AB12CDE" }],
    ]);
  });

  it("downloads the same search as formula-safe CSV", async () => {
    await harness.store.appendAudit(event({ requestId: "=HYPERLINK(1)" }));
    const response = await get("/api/admin/audit.csv?registration=AB12CDE");
    expect(response.headers.get("Content-Type")).toBe("text/csv;charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="vics-audit.csv"',
    );
    const rows = Papa.parse<string[]>(
      (await response.text()).replace(/^\uFEFF/, "").trim(),
    ).data;
    expect(rows[0]).toEqual([
      "Time (UTC)",
      "User",
      "Action",
      "Registrations",
      "Outcome",
      "Request id",
      "Correlation id",
      "Client address",
      "Detail",
      "Attempts",
      "Last attempt (UTC)",
    ]);
    expect(rows[1]).toEqual([
      "2026-07-01T12:00:00.000Z",
      "ann@example.org",
      "check.insurance",
      "AB12CDE",
      "200",
      "'=HYPERLINK(1)",
      "",
      "10.0.0.1",
      "",
      "1",
      "2026-07-01T12:00:00.000Z",
    ]);
  });

  it("leaves no live formula in the download, opened with commas or semicolons", async () => {
    await harness.store.appendAudit(
      event({
        requestId: "x;=1+1",
        userEmail: "\uFF1D1+1@example.org",
        clientAddress: "a;@SUM(A1)",
      }),
    );
    const csv = await (await get("/api/admin/audit.csv")).text();
    expect(liveFormulaCells(csv)).toEqual([]);
    expect(csvCells(csv, ",")).toContain("x;'=1+1");
  });

  it("says in the file when its search found more events than it may hold", async () => {
    const small = signedInApp();
    registerAuditRoutes(small.app, small.store, { csvMaxEvents: 3 });
    const { cookie: smallCookie } = await small.signedIn("admin");
    const csvRows = async () =>
      Papa.parse<string[]>(
        (
          await (
            await small.app.request(
              "/api/admin/audit.csv?registration=AB12CDE",
              {
                headers: { Cookie: smallCookie },
              },
            )
          ).text()
        )
          .replace(/^\uFEFF/, "")
          .trim(),
      ).data;
    try {
      for (let i = 0; i < 3; i++)
        await small.store.appendAudit(event({ requestId: `r${i}` }));
      const whole = await csvRows();
      expect(whole).toHaveLength(4);
      expect(whole.flat().join(" ")).not.toContain(AUDIT_CSV_CUT_OFF);
      await small.store.appendAudit(event({ requestId: "r3" }));
      const cut = await csvRows();
      expect(cut.slice(1, 4).map((row) => row[5])).toEqual(["r3", "r2", "r1"]);
      expect(cut).toHaveLength(5);
      expect(cut[4]![0]).toMatch(
        new RegExp(`^${AUDIT_CSV_CUT_OFF} .*newest 3 events`),
      );
      const exported = await small.store.searchAudit({ limit: 10 });
      expect(exported[0]).toMatchObject({
        action: "audit.export",
        detail: { registration: "AB12CDE", events: 3, cutOff: true },
      });
    } finally {
      small.store.close();
    }
  });

  it("shows the proxy's own request id, and the client's apart as its correlation id", async () => {
    await harness.store.appendAudit(
      event({ requestId: "own-1", correlationId: "client-7" }),
    );
    const page = (await (
      await get("/api/admin/audit?registration=AB12CDE")
    ).json()) as { events: { requestId: string; correlationId?: string }[] };
    expect(page.events[0]).toMatchObject({
      requestId: "own-1",
      correlationId: "client-7",
    });
    const rows = Papa.parse<string[]>(
      (await (await get("/api/admin/audit.csv?registration=AB12CDE")).text())
        .replace(/^\uFEFF/, "")
        .trim(),
    ).data;
    expect(rows[0]![6]).toBe("Correlation id");
    expect(rows[1]!.slice(5, 7)).toEqual(["own-1", "client-7"]);
  });

  it("is for admins only, and each user's recent checks are their own", async () => {
    const staff = await harness.signedIn("staff");
    expect((await get("/api/admin/audit", staff.cookie)).status).toBe(403);
    expect((await get("/api/admin/audit.csv", staff.cookie)).status).toBe(403);
    await harness.store.appendAudit(
      event({ userId: staff.user.id, requestId: "mine" }),
    );
    await harness.store.appendAudit(
      event({
        userId: staff.user.id,
        action: "sign-in",
        registrations: [],
        requestId: "in",
      }),
    );
    await harness.store.appendAudit(event({ requestId: "theirs" }));
    await harness.store.appendAudit(
      event({
        userId: staff.user.id,
        requestId: "on-a-date",
        at: Date.parse("2026-07-01T12:05:00Z"),
        detail: { date: "2026-06-08", verdict: "insured" },
      }),
    );
    const recent = (await (
      await get("/api/me/recent-checks", staff.cookie)
    ).json()) as { checks: unknown[] };
    expect(recent.checks).toEqual([
      {
        at: "2026-07-01T12:05:00.000Z",
        action: "check.insurance",
        registrations: ["AB12CDE"],
        outcome: "200",
        verdict: "insured",
        date: "2026-06-08",
      },
      {
        at: "2026-07-01T12:00:00.000Z",
        action: "check.insurance",
        registrations: ["AB12CDE"],
        outcome: "200",
      },
    ]);
  });
});
