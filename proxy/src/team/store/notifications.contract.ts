import { describe, expect, it } from "vitest";
import type { ProxyStore } from "./proxy-store.ts";
import type { NotificationQuery, Recheck } from "./watch-store.ts";

const T0 = Date.parse("2026-11-24T06:00:00Z");

/** A page of everything, 10 rows, as the user sees it. */
const everything = (userId: string): NotificationQuery => ({
  userId,
  page: 0,
  pageSize: 10,
  groupAlerts: 10,
});

/** A re-check that opens one alert of `kind` (keyed `key`), after facts or as a baseline. */
const opening = (
  registration: string,
  kind: "untaxed" | "mot-expired" | "not-insured",
  options: { at?: number; baseline?: boolean; key?: string } = {},
): Recheck => ({
  registration,
  at: options.at ?? T0,
  ...(options.baseline && { baseline: true }),
  facts: { found: true },
  timeline: [],
  opened: [{ kind, key: options.key ?? `${kind} ${registration}`, detail: {} }],
  closed: [],
});

const fleetOf = (store: ProxyStore, name: string, registrations: string[]) =>
  store.createFleet(
    name,
    {
      columns: [],
      vehicles: registrations.map((registration) => ({
        registration,
        cells: [],
      })),
    },
    { email: "ann@example.org", at: T0 },
  );

/** In-app notifications: the alerts of watched vehicles, read or not, per user. */
export function notificationsContract(store: () => ProxyStore) {
  describe("in-app notifications", () => {
    it("lists watched vehicles' alerts newest first, read per user, and a removed vehicle's fall silent", async () => {
      const fleet = await store().createFleet(
        "Vans",
        {
          columns: [],
          vehicles: ["AB12CDE", "LP08SED"].map((registration) => ({
            registration,
            cells: [],
          })),
        },
        { email: "ann@example.org", at: T0 },
      );
      const alert = (registration: string, key: string) => ({
        registration,
        at: T0,
        facts: { found: true },
        timeline: [],
        opened: [{ kind: "untaxed" as const, key, detail: {} }],
        closed: [],
      });
      const [first, second] = await store().recordRechecks([
        alert("AB12CDE", "sorn since 2026-11-24"),
        alert("LP08SED", "untaxed since 2026-11-24"),
      ]);
      expect([first?.registration, second?.registration]).toEqual([
        "AB12CDE",
        "LP08SED",
      ]);
      // Not in any fleet: never a notification.
      await store().recordRechecks([alert("SW71UWJ", "sorn since 2026-11-24")]);

      expect(await store().unreadCount("ann")).toBe(2);
      // Opened outside a sweep: each is a row of its own.
      const listed = await store().notificationPage(everything("ann"));
      expect(listed.total).toBe(2);
      expect(
        listed.rows.map((row) =>
          row.type === "alerts"
            ? [row.alerts[0]!.alert.registration, row.alerts[0]!.read]
            : row.type,
        ),
      ).toEqual([
        ["LP08SED", false],
        ["AB12CDE", false],
      ]);
      await store().markRead("ann", { alerts: [first!.id] });
      expect(await store().unreadCount("ann")).toBe(1);
      expect(await store().unreadCount("bob")).toBe(2);
      await store().markRead("ann", { alerts: [first!.id] });
      await store().markRead("bob", { matching: {} });
      expect(await store().unreadCount("bob")).toBe(0);

      await store().replaceFleetVehicles(
        fleet.id,
        1,
        { columns: [], vehicles: [{ registration: "AB12CDE", cells: [] }] },
        { email: "ann@example.org", at: T0 },
      );
      expect(await store().unreadCount("ann")).toBe(0);
      const left = await store().notificationPage(everything("ann"));
      expect(
        left.rows.map(
          (row) => row.type === "alerts" && row.alerts[0]!.alert.id,
        ),
      ).toEqual([first!.id]);
    });

    it("sums a fleet's first check up in one notification, not one per vehicle, and keeps its alerts open for the fleet's page (issue 34, point 3)", async () => {
      const vans = await fleetOf(store(), "Vans", [
        "AB12CDE",
        "LP08SED",
        "ER19ERR",
      ]);
      await fleetOf(store(), "Cars", ["AB12CDE"]);
      const run = await store().startWatchRun("on demand", T0);
      const opened = await store().recordRechecks(
        [
          opening("AB12CDE", "untaxed", { baseline: true }),
          opening("LP08SED", "not-insured", { baseline: true }),
        ],
        run,
      );
      // A later batch of the same sweep adds to the same summary.
      await store().recordRechecks(
        [
          {
            registration: "ER19ERR",
            at: T0 + 1,
            baseline: true,
            facts: { found: true },
            timeline: [],
            opened: [],
            closed: [],
          },
        ],
        run,
      );
      expect(opened).toHaveLength(2);
      // Open on the fleet's page, and never delivered one by one.
      const [state] = await store().watchStates(["AB12CDE"]);
      expect(state!.openAlerts.map((a) => a.kind)).toEqual(["untaxed"]);
      expect(await store().unplannedAlerts(10)).toEqual([]);

      const page = await store().notificationPage(everything("ann"));
      expect(page.total).toBe(2);
      expect(
        page.rows.map((row) =>
          row.type === "first-check"
            ? [
                row.baseline.fleetName,
                row.baseline.vehicles,
                row.baseline.attention,
                row.read,
              ]
            : row.type,
        ),
      ).toEqual([
        // Vans' last vehicle came in a later batch: the newer row.
        ["Vans", 3, 2, false],
        ["Cars", 1, 1, false],
      ]);
      expect(await store().unreadCount("ann")).toBe(2);
      const summary = page.rows.find(
        (row) => row.type === "first-check" && row.baseline.fleetId === vans.id,
      );
      if (summary?.type !== "first-check") throw new Error("no summary");
      await store().markRead("ann", { firstCheck: summary.baseline.id });
      expect(await store().unreadCount("ann")).toBe(1);
      expect(await store().unreadCount("bob")).toBe(2);
      await store().markRead("bob", { matching: {} });
      expect(await store().unreadCount("bob")).toBe(0);

      // The next sweep's news is an alert again.
      const next = await store().startWatchRun("daily", T0 + 10);
      await store().recordRechecks(
        [opening("ER19ERR", "mot-expired", { at: T0 + 11 })],
        next,
      );
      expect(await store().unreadCount("bob")).toBe(1);
      expect(await store().unplannedAlerts(10)).toHaveLength(1);
    });

    it("groups a sweep's alerts by fleet and kind, pages the rows, and filters them by fleet and kind", async () => {
      const vans = await fleetOf(store(), "Vans", [
        "AB12CDE",
        "LP08SED",
        "ER19ERR",
      ]);
      const cars = await fleetOf(store(), "Cars", ["SW71UWJ"]);
      const run = await store().startWatchRun("daily", T0);
      await store().recordRechecks(
        [
          opening("AB12CDE", "untaxed"),
          opening("LP08SED", "untaxed"),
          opening("ER19ERR", "mot-expired"),
        ],
        run,
      );
      await store().recordRechecks(
        [opening("SW71UWJ", "untaxed", { at: T0 + 5 })],
        run,
      );

      const rows = (query: Partial<NotificationQuery>) =>
        store()
          .notificationPage({ ...everything("ann"), ...query })
          .then(({ rows, total }) => ({
            total,
            rows: rows.map((row) =>
              row.type === "alerts"
                ? [row.fleetName, row.kind, row.count, row.unread, row.runId]
                : row.type,
            ),
          }));
      expect(await rows({})).toEqual({
        total: 3,
        rows: [
          ["Cars", "untaxed", 1, 1, run],
          ["Vans", "mot-expired", 1, 1, run],
          ["Vans", "untaxed", 2, 2, run],
        ],
      });
      expect(await rows({ pageSize: 2, page: 1 })).toEqual({
        total: 3,
        rows: [["Vans", "untaxed", 2, 2, run]],
      });
      expect(await rows({ fleetId: vans.id, kind: "untaxed" })).toEqual({
        total: 1,
        rows: [["Vans", "untaxed", 2, 2, run]],
      });
      expect(await rows({ fleetId: cars.id })).toEqual({
        total: 1,
        rows: [["Cars", "untaxed", 1, 1, run]],
      });
      expect(await rows({ kind: "first-check" })).toEqual({
        total: 0,
        rows: [],
      });

      const page = await store().notificationPage({
        ...everything("ann"),
        fleetId: vans.id,
        kind: "untaxed",
        groupAlerts: 1,
      });
      const [group] = page.rows;
      if (group?.type !== "alerts") throw new Error("no group");
      // The newest listed, all counted.
      expect(group.alerts.map((a) => a.alert.registration)).toEqual([
        "LP08SED",
      ]);
      expect(await store().unreadCount("ann")).toBe(4);
      await store().markRead("ann", {
        group: { runId: run, fleetId: vans.id, kind: "untaxed" },
      });
      expect(await store().unreadCount("ann")).toBe(2);
      expect(await rows({})).toEqual({
        total: 3,
        rows: [
          ["Cars", "untaxed", 1, 1, run],
          ["Vans", "mot-expired", 1, 1, run],
          ["Vans", "untaxed", 2, 0, run],
        ],
      });
    });

    it("marks read only what a fleet or kind filter lists: other fleets' and kinds' stay unread", async () => {
      const vans = await fleetOf(store(), "Vans", ["AB12CDE", "LP08SED"]);
      const cars = await fleetOf(store(), "Cars", ["SW71UWJ"]);
      const first = await store().startWatchRun("on demand", T0);
      await store().recordRechecks(
        [
          opening("AB12CDE", "untaxed", { baseline: true }),
          opening("SW71UWJ", "untaxed", { baseline: true }),
        ],
        first,
      );
      const run = await store().startWatchRun("daily", T0 + 10);
      await store().recordRechecks(
        [
          opening("LP08SED", "untaxed", { at: T0 + 11 }),
          opening("LP08SED", "mot-expired", { at: T0 + 11 }),
          opening("SW71UWJ", "mot-expired", { at: T0 + 11 }),
        ],
        run,
      );
      /** The unread rows, as the page lists them. */
      const unread = async (userId: string) =>
        (await store().notificationPage(everything(userId))).rows
          .filter((row) => (row.type === "alerts" ? row.unread > 0 : !row.read))
          .map((row) =>
            row.type === "alerts"
              ? `${row.fleetName} ${row.kind}`
              : `${row.baseline.fleetName} first check`,
          )
          .sort();
      expect(await unread("ann")).toEqual([
        "Cars first check",
        "Cars mot-expired",
        "Vans first check",
        "Vans mot-expired",
        "Vans untaxed",
      ]);

      await store().markRead("ann", { matching: { fleetId: vans.id } });
      expect(await unread("ann")).toEqual([
        "Cars first check",
        "Cars mot-expired",
      ]);
      expect(await store().unreadCount("ann")).toBe(2);
      // Another user's are theirs.
      expect(await store().unreadCount("bob")).toBe(5);

      await store().markRead("bob", { matching: { kind: "mot-expired" } });
      expect(await unread("bob")).toEqual([
        "Cars first check",
        "Vans first check",
        "Vans untaxed",
      ]);
      await store().markRead("bob", {
        matching: { fleetId: cars.id, kind: "first-check" },
      });
      expect(await unread("bob")).toEqual(["Vans first check", "Vans untaxed"]);
      await store().markRead("bob", {
        matching: { fleetId: cars.id, kind: "untaxed" },
      });
      expect(await unread("bob")).toEqual(["Vans first check", "Vans untaxed"]);
      await store().markRead("bob", { matching: {} });
      expect(await store().unreadCount("bob")).toBe(0);
    });

    it("counts the watched vehicles unknown for longer than a day, for the admin", async () => {
      await store().createFleet(
        "Vans",
        {
          columns: [],
          vehicles: ["AB12CDE", "LP08SED"].map((registration) => ({
            registration,
            cells: [],
          })),
        },
        { email: "ann@example.org", at: T0 },
      );
      const DAY = 86_400_000;
      await store().recordRechecks([
        { registration: "AB12CDE", at: T0 - 2 * DAY, unknown: true },
        { registration: "LP08SED", at: T0 - 3_600_000, unknown: true },
        // Not in a fleet any more: nobody's concern.
        { registration: "SW71UWJ", at: T0 - 5 * DAY, unknown: true },
      ]);
      expect(await store().unknownBefore(T0 - DAY)).toBe(1);
      expect(await store().unknownBefore(T0)).toBe(2);
    });
  });
}
