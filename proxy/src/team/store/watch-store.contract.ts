import { describe, expect, it } from "vitest";
import type { ProxyStore } from "./proxy-store.ts";
import type { Recheck } from "./watch-store.ts";

const T0 = Date.parse("2026-11-24T06:00:00Z");
const DAY = 86_400_000;

const answered = (
  registration: string,
  at: number,
  change: Partial<Extract<Recheck, { facts: unknown }>> = {},
): Recheck => ({
  registration,
  at,
  facts: { found: true, tax: { status: "taxed", dueDate: "2027-03-01" } },
  timeline: [],
  opened: [],
  closed: [],
  ...change,
});

/** What every engine's store must do for the re-checks; `store` is the test's open store. */
export function watchStoreContract(store: () => ProxyStore) {
  describe("re-checks of watched vehicles", () => {
    it("names, in their order, the registrations no re-check has answered yet, past a slice", async () => {
      await store().recordRechecks([
        answered("AB12CDE", T0),
        { registration: "LP08SED", at: T0, unknown: true },
      ]);
      // More than one slice of the SQLite store's reading, the answered one in the second.
      const many = Array.from(
        { length: 2_500 },
        (_, index) => `ZZ${String(index).padStart(5, "0")}`,
      );
      const asked = [
        "LP08SED",
        ...many.slice(0, 2_100),
        "AB12CDE",
        ...many.slice(2_100),
      ];
      expect(await store().unanswered(asked)).toEqual(["LP08SED", ...many]);
      expect(await store().unanswered([])).toEqual([]);
    });

    it("keeps the latest facts, the timeline and alerts, in one batch", async () => {
      const opened = await store().recordRechecks([
        answered("AB12CDE", T0, {
          timeline: [{ area: "tax", before: null, after: { status: "sorn" } }],
          opened: [
            {
              kind: "untaxed",
              key: "sorn since 2026-11-24",
              detail: { status: "sorn", dueDate: null },
            },
          ],
        }),
        answered("SW71UWJ", T0),
      ]);
      expect(opened).toEqual([
        expect.objectContaining({
          registration: "AB12CDE",
          kind: "untaxed",
          key: "sorn since 2026-11-24",
          detail: { status: "sorn", dueDate: null },
          openedAt: T0,
          closedAt: null,
        }),
      ]);
      const [ab, sw, never] = await store().watchStates([
        "AB12CDE",
        "SW71UWJ",
        "LP08SED",
      ]);
      expect(ab).toEqual({
        registration: "AB12CDE",
        facts: { found: true, tax: { status: "taxed", dueDate: "2027-03-01" } },
        checkedAt: T0,
        unknownSince: undefined,
        openAlerts: [
          expect.objectContaining({
            kind: "untaxed",
            key: "sorn since 2026-11-24",
            detail: { status: "sorn", dueDate: null },
            openedAt: T0,
          }),
        ],
      });
      expect(sw?.openAlerts).toEqual([]);
      expect(never).toEqual({
        registration: "LP08SED",
        facts: undefined,
        checkedAt: undefined,
        unknownSince: undefined,
        openAlerts: [],
      });
      expect(await store().vehicleTimeline("AB12CDE")).toEqual([
        { at: T0, area: "tax", before: null, after: { status: "sorn" } },
      ]);
    });

    it("keeps one open alert per key: a sweep run twice alerts once; the fact back after it closed alerts again", async () => {
      const sorn = {
        kind: "untaxed" as const,
        key: "sorn since 2026-11-24",
        detail: {},
      };
      expect(
        await store().recordRechecks([
          answered("AB12CDE", T0, { opened: [sorn] }),
        ]),
      ).toHaveLength(1);
      expect(
        await store().recordRechecks([
          answered("AB12CDE", T0, { opened: [sorn] }),
        ]),
      ).toEqual([]);
      await store().recordRechecks([
        answered("AB12CDE", T0 + DAY, { closed: [sorn] }),
      ]);
      expect((await store().watchStates(["AB12CDE"]))[0]?.openAlerts).toEqual(
        [],
      );
      expect(
        await store().recordRechecks([
          answered("AB12CDE", T0 + 2 * DAY, { opened: [sorn] }),
        ]),
      ).toHaveLength(1);
      const alerts = await store().vehicleAlerts("AB12CDE");
      expect(alerts.map((a) => [a.openedAt, a.closedAt])).toEqual([
        [T0 + 2 * DAY, null],
        [T0, T0 + DAY],
      ]);
    });

    it("opens an end already closed ('insured again')", async () => {
      const [again] = await store().recordRechecks([
        answered("AB12CDE", T0, {
          opened: [
            {
              kind: "insured-again",
              key: "after POL-1 to 2026-11-19",
              detail: { policy: "POL-2" },
              resolved: true,
            },
          ],
        }),
      ]);
      expect(again).toMatchObject({ openedAt: T0, closedAt: T0 });
    });

    it("marks a vehicle unknown since the first re-check that could not answer, keeping its facts, until one does", async () => {
      await store().recordRechecks([answered("AB12CDE", T0)]);
      await store().recordRechecks([
        { registration: "AB12CDE", at: T0 + DAY, unknown: true },
      ]);
      await store().recordRechecks([
        { registration: "AB12CDE", at: T0 + 2 * DAY, unknown: true },
        { registration: "LP08SED", at: T0 + 2 * DAY, unknown: true },
      ]);
      const [ab, lp] = await store().watchStates(["AB12CDE", "LP08SED"]);
      expect(ab).toMatchObject({
        facts: { found: true },
        checkedAt: T0,
        unknownSince: T0 + DAY,
      });
      expect(lp).toMatchObject({
        facts: undefined,
        unknownSince: T0 + 2 * DAY,
      });
      await store().recordRechecks([answered("AB12CDE", T0 + 3 * DAY)]);
      expect((await store().watchStates(["AB12CDE"]))[0]).toMatchObject({
        checkedAt: T0 + 3 * DAY,
        unknownSince: undefined,
      });
    });

    it("finds the newest run of a kind behind any number of runs of other kinds", async () => {
      expect(await store().lastWatchRun("refresh")).toBeUndefined();
      const older = await store().startWatchRun("refresh", T0);
      const newer = await store().startWatchRun("refresh", T0 + DAY);
      await store().finishWatchRun(newer, {
        finishedAt: T0 + DAY + 1_000,
        outcome: "No live register is on",
        vehicles: 0,
        unknown: 0,
        alerts: 0,
      });
      for (let n = 0; n < 60; n += 1)
        await store().startWatchRun("on demand", T0 + DAY + n);
      expect(older).toBeLessThan(newer);
      // Beyond a page of the newest runs, yet found.
      expect(
        (await store().watchRuns(50)).some((run) => run.kind === "refresh"),
      ).toBe(false);
      expect(await store().lastWatchRun("refresh")).toEqual({
        id: newer,
        kind: "refresh",
        startedAt: T0 + DAY,
        finishedAt: T0 + DAY + 1_000,
        outcome: "No live register is on",
        vehicles: 0,
        unknown: 0,
        alerts: 0,
      });
      expect(await store().lastWatchRun("daily")).toBeUndefined();
    });

    it("finds the newest run of a kind with an outcome, behind newer runs of it without", async () => {
      const finish = (id: number, at: number, outcome: string) =>
        store().finishWatchRun(id, {
          finishedAt: at + 1_000,
          outcome,
          vehicles: 1,
          unknown: 0,
          alerts: 0,
        });
      await finish(await store().startWatchRun("daily", T0), T0, "finished");
      const finished = await store().startWatchRun("daily", T0 + DAY);
      await finish(finished, T0 + DAY, "finished");
      await finish(
        await store().startWatchRun("daily", T0 + 2 * DAY),
        T0 + 2 * DAY,
        "failed: the vehicle service could not be reached",
      );
      // One under way, then many runs of other kinds: a page of the newest holds no daily one.
      await store().startWatchRun("daily", T0 + 3 * DAY);
      for (let n = 0; n < 60; n += 1)
        await store().startWatchRun("refresh", T0 + 3 * DAY + n);
      expect(
        (await store().watchRuns(50)).some((run) => run.kind === "daily"),
      ).toBe(false);
      expect(await store().lastWatchRun("daily", "finished")).toMatchObject({
        id: finished,
        kind: "daily",
        startedAt: T0 + DAY,
        outcome: "finished",
      });
      // Without an outcome: the newest of the kind, under way or not.
      expect(await store().lastWatchRun("daily")).toMatchObject({
        startedAt: T0 + 3 * DAY,
        outcome: null,
      });
      expect(
        await store().lastWatchRun("on demand", "finished"),
      ).toBeUndefined();
      expect(await store().lastWatchRun("refresh", "finished")).toBeUndefined();
    });

    it("records each sweep's start and end, newest first, and keeps the admin's settings", async () => {
      const first = await store().startWatchRun("daily", T0);
      await store().finishWatchRun(first, {
        finishedAt: T0 + 60_000,
        outcome: "finished",
        vehicles: 100_000,
        unknown: 3,
        alerts: 12,
      });
      const second = await store().startWatchRun("on demand", T0 + DAY);
      expect(await store().watchRuns(5)).toEqual([
        {
          id: second,
          kind: "on demand",
          startedAt: T0 + DAY,
          finishedAt: null,
          outcome: null,
          vehicles: 0,
          unknown: 0,
          alerts: 0,
        },
        {
          id: first,
          kind: "daily",
          startedAt: T0,
          finishedAt: T0 + 60_000,
          outcome: "finished",
          vehicles: 100_000,
          unknown: 3,
          alerts: 12,
        },
      ]);
      expect(await store().watchSetting("daily time")).toBeUndefined();
      await store().setWatchSetting("daily time", "06:00");
      await store().setWatchSetting("daily time", "05:30");
      expect(await store().watchSetting("daily time")).toBe("05:30");
      // Made once: a second maker gets the first one's value, and an existing one stays.
      expect(await store().watchSettingOnce("a key", "first")).toBe("first");
      expect(await store().watchSettingOnce("a key", "second")).toBe("first");
      expect(await store().watchSettingOnce("daily time", "07:00")).toBe(
        "05:30",
      );
    });

    it("gives a fleet's changes at or after an instant, newest first, of its vehicles only", async () => {
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
      const sorn = {
        area: "tax" as const,
        before: null,
        after: { status: "sorn" },
      };
      const taxed = { status: "taxed", dueDate: "2027-03-01" };
      await store().recordRechecks([
        answered("AB12CDE", T0 - 1, { timeline: [sorn] }),
        answered("SW71UWJ", T0, { timeline: [sorn] }),
      ]);
      await store().recordRechecks([
        answered("AB12CDE", T0, {
          timeline: [{ area: "tax", before: { status: "sorn" }, after: taxed }],
        }),
        answered("LP08SED", T0 + DAY, {
          timeline: [
            { area: "found", before: true, after: false },
            { area: "mot", before: { status: "valid" }, after: null },
          ],
        }),
      ]);
      expect(await store().fleetChangesSince(fleet.id, T0)).toEqual([
        {
          registration: "LP08SED",
          at: T0 + DAY,
          area: "mot",
          before: { status: "valid" },
          after: null,
        },
        {
          registration: "LP08SED",
          at: T0 + DAY,
          area: "found",
          before: true,
          after: false,
        },
        {
          registration: "AB12CDE",
          at: T0,
          area: "tax",
          before: { status: "sorn" },
          after: taxed,
        },
      ]);
      expect(await store().fleetChangesSince(fleet.id, T0 + 2 * DAY)).toEqual(
        [],
      );
      expect(await store().fleetChangesSince("no-such-fleet", 0)).toEqual([]);
    });
  });
}

/**
 * A team's alerts as they stood before notifications were grouped by sweep (issue 34), for
 * each engine's upgrade test: a fleet of two vehicles, sweep 7 and two alerts opened during it
 * and one after. `identityInsert` is what the engine needs to write that id into an identity
 * column: PostgreSQL's OVERRIDING SYSTEM VALUE, nothing for SQLite.
 */
export const alertsBeforeGrouping = (identityInsert: string) => `
  INSERT INTO fleets (id, name, columns, version, created_at, updated_at)
    VALUES ('f1', 'Vans', '[]', 1, 0, 0);
  INSERT INTO fleet_vehicles (fleet_id, registration, position, cells, added_at)
    VALUES ('f1', 'AB12CDE', 0, '[]', 0), ('f1', 'LP08SED', 1, '[]', 0);
  INSERT INTO watch_runs (id, kind, started_at, finished_at, outcome)
    ${identityInsert} VALUES (7, 'daily', 1000, 2000, 'finished');
  INSERT INTO vehicle_alerts (registration, kind, key, detail, opened_at, planned_at)
    VALUES ('AB12CDE', 'untaxed', 'a', '{}', 1500, 1500),
           ('LP08SED', 'untaxed', 'b', '{}', 1600, 1600),
           ('LP08SED', 'not-insured', 'c', '{}', 5000, 5000);`;

/**
 * What the upgrade makes of alertsBeforeGrouping: each old alert in the sweep that ran when it
 * opened, and every one still a notification. Closes the store.
 */
export async function expectAlertsGroupedBySweep(
  store: ProxyStore,
): Promise<void> {
  try {
    const { rows } = await store.notificationPage({
      userId: "ann",
      page: 0,
      pageSize: 10,
      groupAlerts: 10,
    });
    expect(
      rows.map((row) =>
        row.type === "alerts" ? [row.kind, row.runId, row.count] : row.type,
      ),
    ).toEqual([
      // Opened outside any sweep: a row of its own.
      ["not-insured", null, 1],
      ["untaxed", 7, 2],
    ]);
    expect(await store.unreadCount("ann")).toBe(3);
  } finally {
    await store.close();
  }
}
