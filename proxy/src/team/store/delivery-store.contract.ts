import { DEFAULT_ALERT_RULE, type AlertRule } from "@vics/shared";
import { describe, expect, it } from "vitest";
import type { NewDelivery } from "./delivery-store.ts";
import type { ProxyStore } from "./proxy-store.ts";

const T0 = Date.parse("2026-11-24T06:00:00Z");
const MINUTE = 60_000;
const actor = { email: "ann@example.org", at: T0 };

async function fleetWithAlerts(store: ProxyStore, name: string) {
  const fleet = await store.createFleet(
    name,
    {
      columns: [],
      vehicles: ["AB12CDE", "LP08SED"].map((registration) => ({
        registration,
        cells: [],
      })),
    },
    actor,
  );
  const opened = await store.recordRechecks(
    ["AB12CDE", "LP08SED"].map((registration) => ({
      registration,
      at: T0,
      facts: { found: true },
      timeline: [],
      opened: [{ kind: "untaxed" as const, key: `sorn ${name}`, detail: {} }],
      closed: [],
    })),
  );
  return { fleet, opened };
}

/** Alert rules, webhooks and deliveries: each owed once, sent in order, logged per attempt. */
export function deliveryStoreContract(store: () => ProxyStore) {
  describe("alert rules and deliveries", () => {
    it("keeps a fleet's rule, gives the default to one without, and drops it with the fleet", async () => {
      const { fleet } = await fleetWithAlerts(store(), "Rules");
      expect(await store().alertRule(fleet.id)).toBeUndefined();
      const before = await store().alertFleets(["AB12CDE"]);
      expect(before.find((f) => f.fleetId === fleet.id)?.rule).toEqual(
        DEFAULT_ALERT_RULE,
      );
      const rule: AlertRule = {
        ...DEFAULT_ALERT_RULE,
        kinds: ["untaxed"],
        emails: ["ops@example.org"],
      };
      await store().setAlertRule(fleet.id, rule, T0);
      expect(await store().alertRule(fleet.id)).toEqual(rule);
      const after = await store().alertFleets(["AB12CDE", "ZZ99ZZZ"]);
      expect(
        after.filter((f) => f.fleetId === fleet.id).map((f) => f.rule),
      ).toEqual([rule]);
      await store().deleteFleet(fleet.id);
      expect(await store().alertRule(fleet.id)).toBeUndefined();
    });

    it("plans each (alert, fleet, channel, target) once, and marks the alerts planned", async () => {
      const { fleet, opened } = await fleetWithAlerts(store(), "Planned");
      const unplanned = await store().unplannedAlerts(1_000);
      expect(unplanned.map((a) => a.id)).toEqual(
        expect.arrayContaining(opened.map((a) => a.id)),
      );
      const owed: NewDelivery[] = opened.map((alert) => ({
        alertId: alert.id,
        fleetId: fleet.id,
        channel: "email",
        target: "ops@example.org",
        timing: "instant",
        dueAt: T0,
      }));
      await store().planDeliveries(
        opened.map((a) => a.id),
        owed,
        T0,
      );
      // Planning again (a job run twice) owes nothing more.
      await store().planDeliveries(
        opened.map((a) => a.id),
        owed,
        T0,
      );
      const ids = new Set(opened.map((a) => a.id));
      expect(
        (await store().unplannedAlerts(1_000)).filter((a) => ids.has(a.id)),
      ).toEqual([]);
      const pending = (
        await store().pendingDeliveries("email", T0, 1_000)
      ).filter((d) => d.fleetId === fleet.id);
      expect(pending.map((d) => d.alert.registration)).toEqual([
        "AB12CDE",
        "LP08SED",
      ]);
      expect(pending[0]).toMatchObject({
        status: "pending",
        attempts: 0,
        fleetName: "Planned",
        stillInFleet: true,
      });
      // Not yet due a minute before.
      expect(
        (await store().pendingDeliveries("email", T0 - MINUTE, 1_000)).filter(
          (d) => d.fleetId === fleet.id,
        ),
      ).toEqual([]);
    });

    it("counts the pending deliveries by channel and webhook, every email as one, with those due and the oldest due", async () => {
      const counts = async (now: number) => {
        const all = await store().pendingDeliveryCounts(now);
        const email = all.filter((c) => c.channel === "email");
        expect(email.length).toBeLessThanOrEqual(1);
        return {
          email: email[0],
          webhook: all.find((c) => c.webhookId === 9101),
        };
      };
      const before = await counts(T0);
      expect(before.webhook).toBeUndefined();
      const { fleet, opened } = await fleetWithAlerts(store(), "Counted");
      const [a, b] = opened;
      const owed = (
        alert: { id: number },
        channel: "email" | "webhook",
        target: string,
        dueAt: number,
      ): NewDelivery => ({
        alertId: alert.id,
        fleetId: fleet.id,
        channel,
        target,
        timing: "instant",
        dueAt,
      });
      await store().planDeliveries(
        [a!.id, b!.id],
        [
          owed(a!, "email", "ops@example.org", T0 - 5 * MINUTE),
          owed(b!, "email", "boss@example.org", T0 + 60 * MINUTE),
          owed(a!, "webhook", "9101", T0 - 2 * MINUTE),
          owed(b!, "webhook", "9101", T0 - MINUTE),
        ],
        T0,
      );
      const after = await counts(T0);
      expect(after.webhook).toEqual({
        channel: "webhook",
        webhookId: 9101,
        pending: 2,
        due: 2,
        oldestDueAt: T0 - 2 * MINUTE,
      });
      expect(after.email).toMatchObject({ channel: "email" });
      expect(after.email!.webhookId).toBeUndefined();
      expect(after.email!.pending - (before.email?.pending ?? 0)).toBe(2);
      expect(after.email!.due - (before.email?.due ?? 0)).toBe(1);
      expect(after.email!.oldestDueAt).toBeLessThanOrEqual(T0 - 5 * MINUTE);
      // Sent, a delivery is no longer pending.
      const sent = (await store().pendingDeliveries("webhook", T0, 1_000))
        .filter((d) => d.target === "9101")
        .map((d) => d.id);
      await store().recordAttempt(
        sent,
        { at: T0, ok: true, detail: "200" },
        { status: "sent" },
      );
      expect((await counts(T0)).webhook).toBeUndefined();
    });

    it("logs every attempt, retries, fails, replays, drops and reschedules digests", async () => {
      const { fleet, opened } = await fleetWithAlerts(store(), "Logged");
      const [a, b] = opened;
      await store().planDeliveries(
        [a!.id, b!.id],
        [
          {
            alertId: a!.id,
            fleetId: fleet.id,
            channel: "webhook",
            target: "1",
            timing: "instant",
            dueAt: T0,
          },
          {
            alertId: b!.id,
            fleetId: fleet.id,
            channel: "email",
            target: "ops@example.org",
            timing: "digest",
            dueAt: T0 + 60 * MINUTE,
          },
        ],
        T0,
      );
      const mine = async () =>
        (await store().deliveryLog({ limit: 1_000 })).filter(
          (d) => d.fleetId === fleet.id,
        );
      const [digest, hook] = await mine();
      expect(digest).toMatchObject({ channel: "email", timing: "digest" });
      await store().recordAttempt(
        [hook!.id],
        { at: T0, ok: false, detail: "HTTP 500" },
        { status: "pending", nextAttemptAt: T0 + MINUTE, note: "HTTP 500" },
      );
      await store().recordAttempt(
        [hook!.id],
        { at: T0 + MINUTE, ok: false, detail: "HTTP 502" },
        { status: "failed", note: "Gave up after 2 attempts: HTTP 502" },
      );
      const failed = (await mine()).find((d) => d.id === hook!.id)!;
      expect(failed).toMatchObject({
        status: "failed",
        attempts: 2,
        note: "Gave up after 2 attempts: HTTP 502",
        registration: "AB12CDE",
        fleetName: "Logged",
      });
      expect(failed.attemptLog).toEqual([
        { at: T0, ok: false, detail: "HTTP 500" },
        { at: T0 + MINUTE, ok: false, detail: "HTTP 502" },
      ]);
      expect(
        (await store().deliveryLog({ limit: 1_000, status: "failed" })).map(
          (d) => d.id,
        ),
      ).toContain(hook!.id);

      expect(await store().replayDelivery(hook!.id, T0 + 2 * MINUTE)).toBe(
        true,
      );
      expect(await store().replayDelivery(digest!.id, T0)).toBe(false);
      expect((await mine()).find((d) => d.id === hook!.id)).toMatchObject({
        status: "pending",
        attempts: 0,
        nextAttemptAt: T0 + 2 * MINUTE,
      });

      await store().rescheduleDigests(T0 + 30 * MINUTE);
      expect((await mine()).find((d) => d.id === digest!.id)).toMatchObject({
        nextAttemptAt: T0 + 30 * MINUTE,
      });
      await store().dropDeliveries([digest!.id], "The vehicle left the fleet");
      expect((await mine()).find((d) => d.id === digest!.id)).toMatchObject({
        status: "dropped",
        note: "The vehicle left the fleet",
        nextAttemptAt: null,
      });
    });

    it("reads each webhook's pending deliveries of each fleet in order", async () => {
      const { fleet } = await fleetWithAlerts(store(), "Queued");
      const registrations = Array.from(
        { length: 60 },
        (_, i) => `QU${String(i).padStart(2, "0")}EUE`,
      );
      const alerts = await store().recordRechecks(
        registrations.map((registration) => ({
          registration,
          at: T0,
          facts: { found: true },
          timeline: [],
          opened: [{ kind: "untaxed" as const, key: "queued", detail: {} }],
          closed: [],
        })),
      );
      const owed = (target: string, from: number, to: number) =>
        alerts.slice(from, to).map((alert) => ({
          alertId: alert.id,
          fleetId: fleet.id,
          channel: "webhook" as const,
          target,
          timing: "instant" as const,
          dueAt: T0,
        }));
      // Webhook 901's 60 first, then webhook 902's two.
      await store().planDeliveries(
        alerts.map((a) => a.id),
        [...owed("901", 0, 60), ...owed("902", 0, 2)],
        T0,
      );
      const mine = (
        await store().pendingDeliveries("webhook", T0, 1_000)
      ).filter((d) => d.fleetId === fleet.id);
      const of = (target: string) =>
        mine
          .filter((d) => d.target === target)
          .map((d) => d.alert.registration);
      expect(of("901")).toEqual(registrations);
      expect(of("902")).toEqual(registrations.slice(0, 2));
      // The fleet's rule comes with each (the default here: it set none).
      expect(mine[0]!.rule).toEqual(DEFAULT_ALERT_RULE);
    });

    it("reads queue heads first, so one fleet's storm to an endpoint or address crowds out no other fleet", async () => {
      const { fleet: storm } = await fleetWithAlerts(store(), "Storm");
      const { fleet: calm, opened: calmAlerts } = await fleetWithAlerts(
        store(),
        "Calm",
      );
      const registrations = Array.from(
        { length: 150 },
        (_, i) => `ST${String(i).padStart(3, "0")}RM`,
      );
      const alerts = await store().recordRechecks(
        registrations.map((registration) => ({
          registration,
          at: T0,
          facts: { found: true },
          timeline: [],
          opened: [{ kind: "untaxed" as const, key: "storm", detail: {} }],
          closed: [],
        })),
      );
      const both = (fleetId: string, alertId: number): NewDelivery[] => [
        {
          alertId,
          fleetId,
          channel: "webhook",
          target: "911",
          timing: "instant",
          dueAt: T0,
        },
        {
          alertId,
          fleetId,
          channel: "email",
          target: "storm@example.org",
          timing: "instant",
          dueAt: T0,
        },
      ];
      // The storm's 150 first, then the calm fleet's one, to the same webhook and address.
      await store().planDeliveries(
        [...alerts, calmAlerts[0]!].map((a) => a.id),
        [
          ...alerts.flatMap((a) => both(storm.id, a.id)),
          ...both(calm.id, calmAlerts[0]!.id),
        ],
        T0,
      );
      for (const channel of ["webhook", "email"] as const) {
        const read = await store().pendingDeliveries(channel, T0, 20);
        expect(read.map((d) => d.fleetId)).toContain(calm.id);
        expect(read.filter((d) => d.fleetId === storm.id)[0]).toMatchObject({
          alert: { registration: "ST000RM" },
        });
      }
    });

    it("drops a deleted fleet's pending deliveries at once, and lists a fleet's pending ones", async () => {
      const { fleet, opened } = await fleetWithAlerts(store(), "Deleted");
      const { fleet: other, opened: others } = await fleetWithAlerts(
        store(),
        "Kept",
      );
      const owed = (fleetId: string, alertId: number): NewDelivery => ({
        alertId,
        fleetId,
        channel: "webhook",
        target: "912",
        timing: "instant",
        dueAt: T0,
      });
      await store().planDeliveries(
        [...opened, ...others].map((a) => a.id),
        [
          ...opened.map((a) => owed(fleet.id, a.id)),
          owed(other.id, others[0]!.id),
        ],
        T0,
      );
      expect(
        (await store().fleetPendingDeliveries(fleet.id)).map(
          (d) => d.alert.registration,
        ),
      ).toEqual(["AB12CDE", "LP08SED"]);
      expect(await store().deleteFleet(fleet.id)).toBe(true);
      expect(await store().fleetPendingDeliveries(fleet.id)).toEqual([]);
      const pending = await store().pendingDeliveries("webhook", T0, 1_000);
      expect(pending.filter((d) => d.fleetId === fleet.id)).toEqual([]);
      expect(pending.filter((d) => d.fleetId === other.id)).toHaveLength(1);
      const log = (await store().deliveryLog({ limit: 1_000 })).filter(
        (d) => d.fleetId === fleet.id,
      );
      expect(log.map((d) => [d.status, d.note])).toEqual([
        ["dropped", "The fleet was deleted"],
        ["dropped", "The fleet was deleted"],
      ]);
    });

    it("knows when an address was last sent an email, failures and webhooks aside", async () => {
      const { fleet, opened } = await fleetWithAlerts(store(), "Last sent");
      const [a, b] = opened;
      const owed = (alertId: number, channel: "email" | "webhook") => ({
        alertId,
        fleetId: fleet.id,
        channel,
        // The same target on both channels: only the email counts.
        target: "last@example.org",
        timing: "instant" as const,
        dueAt: T0,
      });
      await store().planDeliveries(
        [a!.id, b!.id],
        [owed(a!.id, "email"), owed(b!.id, "email"), owed(a!.id, "webhook")],
        T0,
      );
      expect(await store().lastEmailSentAt("last@example.org")).toBeNull();
      const mine = (await store().deliveryLog({ limit: 1_000 })).filter(
        (d) => d.fleetId === fleet.id,
      );
      const email = mine.filter((d) => d.channel === "email");
      const hook = mine.find((d) => d.channel === "webhook")!;
      await store().recordAttempt(
        [email[0]!.id],
        { at: T0 + MINUTE, ok: true, detail: "Taken by the mail server" },
        { status: "sent" },
      );
      await store().recordAttempt(
        [email[1]!.id],
        { at: T0 + 3 * MINUTE, ok: false, detail: "Mail server down" },
        { status: "pending", nextAttemptAt: T0 + 9 * MINUTE, note: "down" },
      );
      await store().recordAttempt(
        [hook.id],
        { at: T0 + 5 * MINUTE, ok: true, detail: "HTTP 204" },
        { status: "sent" },
      );
      expect(await store().lastEmailSentAt("last@example.org")).toBe(
        T0 + MINUTE,
      );
      expect(await store().lastEmailSentAt("other@example.org")).toBeNull();
    });

    it("knows when it began dating unsubscribe links: its upgrade, or its making", async () => {
      const at = await store().unsubscribeLinksDatedFrom();
      expect(Number.isInteger(at)).toBe(true);
      expect(at).toBeLessThanOrEqual(Date.now());
      expect(at).toBeGreaterThan(Date.now() - 86_400_000);
      // Recorded once, not the time of asking.
      expect(await store().unsubscribeLinksDatedFrom()).toBe(at);
    });

    it("keeps webhooks, rotates a secret keeping the old one for a while, and marks failing", async () => {
      const added = await store().addWebhook(
        {
          url: "https://hooks.example.org/vics",
          description: "Fleet system",
          allowPrivate: false,
          secret: "whsec_old",
        },
        T0,
      );
      expect(added).toMatchObject({
        url: "https://hooks.example.org/vics",
        allowPrivate: false,
        secret: "whsec_old",
        previousSecret: null,
        failingSince: null,
      });
      const rotated = await store().rotateWebhookSecret(
        added.id,
        "whsec_new",
        T0 + 1_000,
      );
      expect(rotated).toMatchObject({
        secret: "whsec_new",
        previousSecret: "whsec_old",
        previousUntil: T0 + 1_000,
      });
      await store().setWebhookFailing(added.id, {
        since: T0,
        error: "HTTP 500",
      });
      await store().setWebhookFailing(added.id, {
        since: T0 + MINUTE,
        error: "HTTP 502",
      });
      const failing = (await store().webhooks()).find((w) => w.id === added.id);
      // Failing since the first time, with the latest error.
      expect(failing).toMatchObject({
        failingSince: T0,
        lastError: "HTTP 502",
      });
      await store().setWebhookFailing(added.id, null);
      expect(
        (await store().webhooks()).find((w) => w.id === added.id),
      ).toMatchObject({ failingSince: null, lastError: null });
      // A fleet's rule that names it, and a delivery waiting for it.
      const { fleet, opened } = await fleetWithAlerts(store(), "Hooked");
      await store().setAlertRule(
        fleet.id,
        { ...DEFAULT_ALERT_RULE, webhookIds: [added.id] },
        T0,
      );
      await store().planDeliveries(
        [opened[0]!.id],
        [
          {
            alertId: opened[0]!.id,
            fleetId: fleet.id,
            channel: "webhook",
            target: String(added.id),
            timing: "instant",
            dueAt: T0,
          },
        ],
        T0,
      );
      expect(await store().removeWebhook(added.id)).toMatchObject({
        id: added.id,
        description: "Fleet system",
      });
      expect(await store().removeWebhook(added.id)).toBeUndefined();
      expect((await store().alertRule(fleet.id))!.webhookIds).toEqual([]);
      const [waiting] = (await store().deliveryLog({ limit: 1_000 })).filter(
        (d) => d.fleetId === fleet.id,
      );
      expect(waiting).toMatchObject({
        status: "dropped",
        note: "The webhook was removed",
      });
      // Its id is never given to another webhook.
      const next = await store().addWebhook(
        {
          url: "https://hooks.example.org/next",
          description: "Next",
          allowPrivate: false,
          secret: "whsec_next",
        },
        T0,
      );
      expect(next.id).toBeGreaterThan(added.id);
      expect(
        await store().rotateWebhookSecret(added.id, "x", T0),
      ).toBeUndefined();
    });
  });
}
