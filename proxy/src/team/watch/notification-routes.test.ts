import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NOTIFICATION_PATHS, NotificationsSchema } from "@vics/shared";
import { jsonRequest, signedInApp } from "../../testing/signed-in-app.ts";
import { registerNotificationRoutes } from "./notification-routes.ts";

const NOW = Date.parse("2026-11-27T06:00:00Z");
let harness: ReturnType<typeof signedInApp>;
beforeEach(async () => {
  harness = signedInApp();
  registerNotificationRoutes(harness.app, harness.store);
  await harness.store.createFleet(
    "Vans",
    { columns: [], vehicles: [{ registration: "LP08SED", cells: [] }] },
    { email: "ann@example.org", at: NOW },
  );
  const run = await harness.store.startWatchRun("daily", NOW);
  await harness.store.recordRechecks(
    [
      {
        registration: "LP08SED",
        at: NOW,
        facts: { found: true },
        timeline: [],
        opened: [
          {
            kind: "not-insured",
            key: "never insured",
            detail: { how: "never" },
          },
          { kind: "untaxed", key: "sorn since 2026-11-27", detail: {} },
        ],
        closed: [],
      },
    ],
    run,
  );
});
afterEach(() => harness.store.close());

const fleetId = async (name: string) =>
  (await harness.store.listFleets()).find((f) => f.name === name)!.id;

describe("/api/notifications", () => {
  it("lists a fleet user's notifications with the unread count, and marks them read for that user only", async () => {
    const ann = await harness.signedIn("fleet");
    const bob = await harness.signedIn("fleet");
    const list = async (cookie: string) =>
      NotificationsSchema.parse(
        await (
          await harness.app.request(NOTIFICATION_PATHS.list, {
            headers: { Cookie: cookie },
          })
        ).json(),
      );
    const first = await list(ann.cookie);
    expect(first.unread).toBe(2);
    expect(first).toMatchObject({ page: 1, pages: 1, total: 2 });
    const alertsOf = (answer: typeof first) =>
      answer.rows.flatMap((row) => (row.type === "alerts" ? row.alerts : []));
    expect(alertsOf(first).map((n) => n.alert.kind)).toEqual([
      "untaxed",
      "not-insured",
    ]);
    const one = alertsOf(first)[1]!.alert.id;
    const marked = await harness.app.request(
      NOTIFICATION_PATHS.read,
      jsonRequest("POST", { ids: [one] }, ann.cookie),
    );
    expect(await marked.json()).toEqual({ unread: 1 });
    const count = await harness.app.request(NOTIFICATION_PATHS.unread, {
      headers: { Cookie: ann.cookie },
    });
    expect(await count.json()).toEqual({ unread: 1 });
    expect(alertsOf(await list(ann.cookie)).map((n) => n.read)).toEqual([
      false,
      true,
    ]);
    expect((await list(bob.cookie)).unread).toBe(2);
    await harness.app.request(
      NOTIFICATION_PATHS.read,
      jsonRequest("POST", {}, ann.cookie),
    );
    expect((await list(ann.cookie)).unread).toBe(0);
  });

  it("pages and filters the rows, marks a sweep's row read, and refuses a query it cannot read", async () => {
    const ann = await harness.signedIn("fleet");
    const get = (query: string) =>
      harness.app.request(`${NOTIFICATION_PATHS.list}${query}`, {
        headers: { Cookie: ann.cookie },
      });
    const page = async (query: string) =>
      NotificationsSchema.parse(await (await get(query)).json());
    // The page's fleet filter lists the saved fleets (GET /api/fleets), not this answer.
    const all = await (await get("")).json();
    expect(all).not.toHaveProperty("fleets");
    const vans = await fleetId("Vans");
    const untaxed = await page(`?fleet=${vans}&kind=untaxed`);
    expect(untaxed.rows).toMatchObject([
      { type: "alerts", kind: "untaxed", count: 1, fleet: { name: "Vans" } },
    ]);
    expect(await page("?kind=first-check")).toMatchObject({
      total: 0,
      pages: 1,
      rows: [],
    });
    expect(await page("?page=2")).toMatchObject({ page: 2, rows: [] });
    const [row] = untaxed.rows;
    if (row?.type !== "alerts" || row.runId === null) throw new Error("no row");
    const marked = await harness.app.request(
      NOTIFICATION_PATHS.read,
      jsonRequest(
        "POST",
        { group: { runId: row.runId, fleetId: vans, kind: "untaxed" } },
        ann.cookie,
      ),
    );
    expect(await marked.json()).toEqual({ unread: 1 });
    expect((await get("?kind=lapsed")).status).toBe(400);
    expect((await get("?page=0")).status).toBe(400);
  });

  it("marks read only what the page's fleet and kind filter lists ('Mark these as read'), and refuses a kind it does not know", async () => {
    const cars = await harness.store.createFleet(
      "Cars",
      { columns: [], vehicles: [{ registration: "SW71UWJ", cells: [] }] },
      { email: "ann@example.org", at: NOW },
    );
    const run = await harness.store.startWatchRun("daily", NOW + 1);
    await harness.store.recordRechecks(
      [
        {
          registration: "SW71UWJ",
          at: NOW + 1,
          facts: { found: true },
          timeline: [],
          opened: [{ kind: "untaxed", key: "untaxed", detail: {} }],
          closed: [],
        },
      ],
      run,
    );
    const ann = await harness.signedIn("fleet");
    const page = async (query = "") =>
      NotificationsSchema.parse(
        await (
          await harness.app.request(`${NOTIFICATION_PATHS.list}${query}`, {
            headers: { Cookie: ann.cookie },
          })
        ).json(),
      );
    const vans = await fleetId("Vans");
    const markRead = (body: object) =>
      harness.app.request(
        NOTIFICATION_PATHS.read,
        jsonRequest("POST", body, ann.cookie),
      );
    expect((await page()).unread).toBe(3);

    // Vans' untaxed: Vans' not-insured and Cars' untaxed stay unread.
    const vansUntaxed = await markRead({ fleet: vans, kind: "untaxed" });
    expect(vansUntaxed.status).toBe(200);
    expect(await vansUntaxed.json()).toEqual({ unread: 2 });
    const unreadRows = async (query: string) =>
      (await page(query)).rows.flatMap((row) =>
        row.type === "alerts" && row.unread > 0
          ? [[row.fleet.name, row.kind]]
          : [],
      );
    expect(await unreadRows("")).toEqual([
      ["Cars", "untaxed"],
      ["Vans", "not-insured"],
    ]);

    // Every fleet's untaxed: Cars' goes too; Vans' not-insured stays.
    expect(await (await markRead({ kind: "untaxed" })).json()).toEqual({
      unread: 1,
    });
    expect(await unreadRows("")).toEqual([["Vans", "not-insured"]]);

    // Another fleet: Vans' alert stays unread.
    expect(await (await markRead({ fleet: cars.id })).json()).toEqual({
      unread: 1,
    });
    // The fleet's everything.
    expect(await (await markRead({ fleet: vans })).json()).toEqual({
      unread: 0,
    });
    expect((await markRead({ kind: "lapsed" })).status).toBe(400);
  });

  it("is for the fleet role", async () => {
    const staff = await harness.signedIn("staff");
    const refused = await harness.app.request(NOTIFICATION_PATHS.list, {
      headers: { Cookie: staff.cookie },
    });
    expect(refused.status).toBe(403);
  });
});
