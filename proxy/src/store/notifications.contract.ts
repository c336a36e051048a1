import { describe, expect, it } from "vitest";
import type { ProxyStore } from "./proxy-store.ts";

const T0 = Date.parse("2026-11-24T06:00:00Z");

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
      const listed = await store().notifications("ann", 10);
      expect(listed.map((n) => [n.alert.registration, n.read])).toEqual([
        ["LP08SED", false],
        ["AB12CDE", false],
      ]);
      await store().markRead("ann", [first!.id]);
      expect(await store().unreadCount("ann")).toBe(1);
      expect(await store().unreadCount("bob")).toBe(2);
      await store().markRead("ann", [first!.id]);
      await store().markRead("bob", "all");
      expect(await store().unreadCount("bob")).toBe(0);

      await store().replaceFleetVehicles(
        fleet.id,
        1,
        { columns: [], vehicles: [{ registration: "AB12CDE", cells: [] }] },
        { email: "ann@example.org", at: T0 },
      );
      expect(await store().unreadCount("ann")).toBe(0);
      expect(
        (await store().notifications("ann", 10)).map((n) => n.alert.id),
      ).toEqual([first!.id]);
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
