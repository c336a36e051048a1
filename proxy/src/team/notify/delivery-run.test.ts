// The deliveries end to end on a controlled clock: a real SMTP server and a real webhook
// receiver (verifying Standard Webhooks signatures) inside the test, the SQLite store, and the
// planner and senders as the job engines run them.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_ALERT_RULE, type AlertRule } from "@vics/shared";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import type { AlertRecord } from "../store/watch-store.ts";
import { runDeliveries } from "./delivery-run.ts";
import { createMailer, type Mailer } from "./email/mailer.ts";
import {
  startInbox,
  type Inbox,
  type Received,
} from "../../testing/smtp-inbox.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./retry-schedule.ts";
import { sendWebhook } from "./webhook/send-webhook.ts";
import {
  startReceiver,
  type TestReceiver,
} from "../../testing/webhook-receiver.ts";
import { readUnsubscribeToken, unsubscribeKey } from "./unsubscribe-token.ts";

// Tuesday 24 November 2026, 10:00 in the UK (GMT); the digest goes at 07:00.
const T0 = Date.parse("2026-11-24T10:00:00Z");
const NEXT_DIGEST = Date.parse("2026-11-25T07:00:00Z");
const MINUTE = 60_000;
const FROM = "VICS <alerts@vics.example>";
const APP = "https://vics.example";

let store: ProxyStore;
let clock: number;
let inbox: Inbox;
let receiver: TestReceiver;
let mailer: Mailer;
let fleetId: string;
let webhookId: number;

const run = () =>
  runDeliveries({
    store,
    now: () => clock,
    mail: { mailer, from: FROM },
    // Signed at the real time: the receiver checks the signature's freshness against it.
    sendWebhook: (attempt) =>
      sendWebhook({ ...attempt, timestamp: new Date(), timeoutMs: 2_000 }),
    appUrl: () => APP,
  });

async function open(registration: string, ...alerts: AlertRecord[]) {
  return store.recordRechecks([
    {
      registration,
      at: clock,
      facts: { found: true },
      timeline: [],
      opened: alerts,
      closed: [],
    },
  ]);
}

const lapsed = (policy: string): AlertRecord => ({
  kind: "not-insured",
  key: `${policy} to 2026-11-23`,
  detail: { how: "lapsed", policy, insurer: "Acme", endedOn: "2026-11-23" },
});
const ending = (threshold: number): AlertRecord => ({
  kind: "ending",
  key: `mot 2026-12-24 at ${threshold}`,
  detail: { area: "mot", date: "2026-12-24", threshold },
});

const textOf = (received: Received) => received.mail.text ?? "";
/** Who got each email, in order of address: the emails of one run go one after another. */
const recipients = (received: readonly Received[]) =>
  received.map((r) => r.envelopeTo).sort();
interface EventAlert {
  alert: { registration: string; kind: string };
}
/** Each POST's alerts: one (vehicle.alert), or a fleet's batch (vehicle.alerts). */
const alertsOf = (body: string): EventAlert[] => {
  const event = JSON.parse(body) as
    | { type: "vehicle.alert"; data: EventAlert }
    | { type: "vehicle.alerts"; data: { alerts: EventAlert[] } };
  return event.type === "vehicle.alert" ? [event.data] : event.data.alerts;
};
const eventsAt = (r: TestReceiver) =>
  r.deliveries.flatMap((d) =>
    alertsOf(d.body).map(({ alert }) => `${alert.registration} ${alert.kind}`),
  );

async function setRule(rule: Partial<AlertRule>) {
  await store.setAlertRule(
    fleetId,
    {
      ...DEFAULT_ALERT_RULE,
      emails: ["ops@fleet.example", "cover@fleet.example"],
      webhookIds: [webhookId],
      ...rule,
    },
    clock,
  );
}

beforeEach(async () => {
  clock = T0;
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  inbox = await startInbox();
  mailer = createMailer({
    url: inbox.url,
    from: FROM,
    timeouts: { connectMs: 1_000, greetingMs: 1_000, socketMs: 2_000 },
  });
  const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64");
  receiver = await startReceiver({ current: secret });
  const webhook = await store.addWebhook(
    {
      url: receiver.url,
      description: "Fleet system",
      allowPrivate: true,
      secret,
    },
    clock,
  );
  webhookId = webhook.id;
  const fleet = await store.createFleet(
    "Vans",
    {
      columns: [],
      vehicles: ["AB12CDE", "LP08SED", "SW71UWJ"].map((registration) => ({
        registration,
        cells: [],
      })),
    },
    { email: "ann@fleet.example", at: clock },
  );
  fleetId = fleet.id;
  await setRule({});
});

afterEach(async () => {
  mailer.close();
  await inbox.close();
  await receiver.close();
  await store.close();
});

describe("alert deliveries", () => {
  it("emails urgent alerts at once, one email per address, and the rest in the next digest, each once", async () => {
    await open("AB12CDE", lapsed("P-1"));
    await open("LP08SED", ending(30));
    await run();
    expect(recipients(inbox.received)).toEqual([
      ["cover@fleet.example"],
      ["ops@fleet.example"],
    ]);
    const [instant] = inbox.received;
    expect(instant!.mail.subject).toContain("AB12 CDE");
    expect(textOf(instant!)).toContain("policy P-1");
    expect(textOf(instant!)).not.toContain("LP08 SED");
    expect(textOf(instant!)).toContain(`${APP}/fleets/vehicles/AB12CDE`);
    const unsubscribe = instant!.mail.headerLines.find(
      (line) => line.key === "list-unsubscribe",
    );
    expect(unsubscribe?.line).toMatch(
      /^List-Unsubscribe:\s+<https:\/\/vics\.example\/unsubscribe\?token=[\w.-]+>$/,
    );
    // The link says when its email was sent: it works for its days from then (unsubscribe-token.ts).
    const token = /token=([\w.-]+)/.exec(unsubscribe!.line)![1]!;
    expect(
      readUnsubscribeToken(await unsubscribeKey(store), token),
    ).toMatchObject({ sentAt: T0 });
    // Both alerts went to the webhook at once, in order, signed.
    expect(eventsAt(receiver)).toEqual([
      "AB12CDE not-insured",
      "LP08SED ending",
    ]);
    expect(
      receiver.deliveries.every((d) => d.verifiedBy.includes("current")),
    ).toBe(true);

    // Nothing more until the digest time, however often the job runs.
    clock = NEXT_DIGEST - MINUTE;
    await run();
    expect(inbox.received).toHaveLength(2);
    clock = NEXT_DIGEST;
    await run();
    await run();
    const digests = inbox.received.slice(2);
    expect(recipients(digests)).toEqual([
      ["cover@fleet.example"],
      ["ops@fleet.example"],
    ]);
    expect(digests[0]!.mail.subject).toMatch(/summary/i);
    expect(textOf(digests[0]!)).toContain("LP08 SED");
    expect(textOf(digests[0]!)).not.toContain("AB12 CDE");
    // The two, from one fleet in one run, went as one POST (vehicle.alerts).
    expect(receiver.deliveries).toHaveLength(1);
    const log = await store.deliveryLog({ limit: 100 });
    expect(log.every((d) => d.status === "sent")).toBe(true);
    expect(log.every((d) => d.attemptLog.length === 1)).toBe(true);
  });

  it("sends only the kinds and thresholds the fleet's rule asks for, and plans an alert once", async () => {
    await setRule({
      kinds: ["ending", "untaxed"],
      endingDays: [7],
      webhookIds: [],
    });
    await open("AB12CDE", lapsed("P-2"), ending(30));
    await open("LP08SED", ending(7));
    await run();
    await run();
    const log = await store.deliveryLog({ limit: 100 });
    expect(log.map((d) => [d.registration, d.target, d.timing])).toEqual([
      ["LP08SED", "cover@fleet.example", "digest"],
      ["LP08SED", "ops@fleet.example", "digest"],
    ]);
    expect(await store.unplannedAlerts(10)).toEqual([]);
  });

  it("a vehicle sold before its digest falls silent, and an unsubscribed address gets nothing more", async () => {
    await open("LP08SED", ending(30));
    await open("SW71UWJ", ending(14));
    await run();
    const fleet = (await store.findFleet(fleetId))!;
    await store.replaceFleetVehicles(
      fleetId,
      fleet.version,
      {
        columns: [],
        vehicles: ["AB12CDE", "SW71UWJ"].map((registration) => ({
          registration,
          cells: [],
        })),
      },
      { email: "ann@fleet.example", at: clock },
    );
    await setRule({ emails: ["ops@fleet.example"] });
    clock = NEXT_DIGEST;
    await run();
    expect(recipients(inbox.received)).toEqual([["ops@fleet.example"]]);
    expect(textOf(inbox.received[0]!)).toContain("SW71 UWJ");
    expect(textOf(inbox.received[0]!)).not.toContain("LP08 SED");
    const dropped = (
      await store.deliveryLog({ limit: 100, status: "dropped" })
    ).map((d) => `${d.registration} ${d.target}: ${d.note}`);
    expect(dropped).toEqual(
      expect.arrayContaining([
        "LP08SED ops@fleet.example: The vehicle left the fleet",
        "LP08SED cover@fleet.example: The vehicle left the fleet",
        "SW71UWJ cover@fleet.example: The address is no longer in the fleet's alert rule (or unsubscribed)",
      ]),
    );
    expect(eventsAt(receiver)).toEqual(["LP08SED ending", "SW71UWJ ending"]);
  });

  it("retries while the SMTP server is down, and each email arrives once when it is back", async () => {
    const port = inbox.port;
    await inbox.close();
    await open("AB12CDE", lapsed("P-3"));
    await run();
    let log = await store.deliveryLog({ limit: 100 });
    const emails = log.filter((d) => d.channel === "email");
    expect(emails.map((d) => [d.status, d.attempts])).toEqual([
      ["pending", 1],
      ["pending", 1],
    ]);
    expect(emails[0]!.attemptLog[0]!.ok).toBe(false);
    expect(emails[0]!.nextAttemptAt).toBe(clock + RETRY_DELAYS_MS[0]!);

    // Still down at the first retry.
    clock += RETRY_DELAYS_MS[0]!;
    await run();
    const received: Received[] = [];
    inbox = await startInbox(port, received);
    // Not due yet: nothing is sent before its time.
    await run();
    expect(received).toEqual([]);
    clock += RETRY_DELAYS_MS[1]!;
    await run();
    await run();
    expect(recipients(received)).toEqual([
      ["cover@fleet.example"],
      ["ops@fleet.example"],
    ]);
    log = await store.deliveryLog({ limit: 100 });
    expect(
      log
        .filter((d) => d.channel === "email")
        .map((d) => [d.status, d.attemptLog.map((a) => a.ok)]),
    ).toEqual([
      ["sent", [false, false, true]],
      ["sent", [false, false, true]],
    ]);
  });

  it("emails no alert that closed before it went, but does send an 'insured again'", async () => {
    await setRule({ webhookIds: [] });
    await open("LP08SED", ending(30));
    await run();
    // Renewed before the digest: the ending alert closes.
    clock += 60 * MINUTE;
    await store.recordRechecks([
      {
        registration: "LP08SED",
        at: clock,
        facts: { found: true },
        timeline: [],
        opened: [],
        closed: [{ kind: "ending", key: "mot 2026-12-24 at 30" }],
      },
    ]);
    await open("AB12CDE", {
      kind: "insured-again",
      key: "after P-9",
      detail: { policy: "P-10", insurer: "Acme", validTo: "2027-11-23" },
      resolved: true,
    });
    await run();
    clock = NEXT_DIGEST;
    await run();
    expect(inbox.received.map((r) => textOf(r))).toEqual([
      expect.stringContaining("AB12 CDE"),
      expect.stringContaining("AB12 CDE"),
    ]);
    const dropped = await store.deliveryLog({ limit: 10, status: "dropped" });
    expect(dropped.map((d) => [d.registration, d.note])).toEqual([
      ["LP08SED", "The alert had closed before the email went"],
      ["LP08SED", "The alert had closed before the email went"],
    ]);
  });

  it("counts each email's attempts by itself when a new one joins an old one's retry", async () => {
    await setRule({ emails: ["ops@fleet.example"], webhookIds: [] });
    await inbox.close();
    await open("AB12CDE", lapsed("P-7"));
    await run();
    for (const delay of RETRY_DELAYS_MS.slice(0, -1)) {
      clock += delay;
      await run();
    }
    // Seven attempts so far; a new urgent alert arrives, due with the old one's last retry.
    await open("LP08SED", lapsed("P-8"));
    clock += RETRY_DELAYS_MS.at(-1)!;
    await run();
    const byVehicle = Object.fromEntries(
      (await store.deliveryLog({ limit: 10 })).map((d) => [
        d.registration,
        [d.status, d.attempts],
      ]),
    );
    expect(byVehicle).toEqual({
      AB12CDE: ["failed", MAX_ATTEMPTS],
      LP08SED: ["pending", 1],
    });
  });

  it("sends no more once the run's time is up, leaving the rest pending for the next run", async () => {
    await open("AB12CDE", lapsed("P-11"));
    await open("LP08SED", ending(7));
    let sends = 0;
    await runDeliveries({
      store,
      now: () => clock,
      mail: { mailer, from: FROM },
      sendWebhook: async (attempt) => {
        sends += 1;
        return sendWebhook({
          ...attempt,
          timestamp: new Date(),
          timeoutMs: 2_000,
        });
      },
      appUrl: () => APP,
      // Up after the first email.
      shouldStop: () => inbox.received.length >= 1,
    });
    expect(inbox.received).toHaveLength(1);
    expect(sends).toBe(0);
    const pending = await store.deliveryLog({ limit: 10, status: "pending" });
    // The other address's instant email, both digest emails, both webhooks.
    expect(pending.map((d) => d.channel).sort()).toEqual([
      "email",
      "email",
      "email",
      "webhook",
      "webhook",
    ]);
    // The next run sends what is due.
    await run();
    expect(inbox.received).toHaveLength(2);
    expect(eventsAt(receiver)).toEqual([
      "AB12CDE not-insured",
      "LP08SED ending",
    ]);
  });

  it("a webhook that fails for a while gets its deliveries in order once it answers", async () => {
    await setRule({ emails: [] });
    let failing = true;
    receiver.answer = (response) =>
      response.writeHead(failing ? 503 : 204).end();
    await open("AB12CDE", lapsed("P-4"));
    await run();
    await open("LP08SED", ending(14));
    await open("SW71UWJ", ending(7));
    // The first waits for its retry: the newer two wait behind it, unsent.
    await run();
    expect(eventsAt(receiver)).toEqual(["AB12CDE not-insured"]);
    for (const delay of RETRY_DELAYS_MS.slice(0, 2)) {
      clock += delay;
      await run();
    }
    failing = false;
    clock += RETRY_DELAYS_MS[2]!;
    await run();
    const answered = eventsAt(receiver).slice(3);
    expect(answered).toEqual([
      "AB12CDE not-insured",
      "LP08SED ending",
      "SW71UWJ ending",
    ]);
    // The same message id on every attempt: the receiver's idempotency key.
    const ids = new Set(
      receiver.deliveries.slice(0, 4).map((d) => d.headers["webhook-id"]),
    );
    expect(ids.size).toBe(1);
  });

  it("out of retries, a delivery fails and its webhook is marked failing, until a replay arrives", async () => {
    await setRule({ emails: [] });
    receiver.answer = (response) => response.writeHead(500).end("down");
    await open("AB12CDE", lapsed("P-5"));
    await run();
    for (const delay of RETRY_DELAYS_MS) {
      clock += delay;
      await run();
    }
    expect(receiver.deliveries).toHaveLength(MAX_ATTEMPTS);
    const [failed] = await store.deliveryLog({ limit: 10, status: "failed" });
    expect(failed!.note).toMatch(/^Gave up after 8 attempts: /);
    const [webhook] = await store.webhooks();
    expect(webhook!.failingSince).not.toBeNull();

    receiver.answer = (response) => response.writeHead(204).end();
    expect(await store.replayDelivery(failed!.id, clock)).toBe(true);
    await run();
    expect(receiver.deliveries).toHaveLength(MAX_ATTEMPTS + 1);
    expect((await store.webhooks())[0]!.failingSince).toBeNull();
    expect((await store.deliveryLog({ limit: 10 }))[0]!.status).toBe("sent");
  });

  it("drops, as removed, a delivery to a webhook a rule still names after its removal", async () => {
    // The rule's check of its webhooks and its write are two steps: a removal between them
    // leaves the rule naming a webhook that no longer exists.
    const gone = webhookId + 1_000;
    await setRule({ emails: [], webhookIds: [webhookId, gone] });
    await open("AB12CDE", lapsed("P-7"));
    await run();
    await run();
    expect(eventsAt(receiver)).toEqual(["AB12CDE not-insured"]);
    const log = await store.deliveryLog({ limit: 10 });
    const toGone = log.filter((entry) => entry.target === String(gone));
    expect(toGone.map((entry) => [entry.status, entry.note])).toEqual([
      ["dropped", "The webhook was removed"],
    ]);
    expect(await store.deliveryLog({ limit: 10, status: "pending" })).toEqual(
      [],
    );
  });

  it("batches one fleet's storm per webhook and address, and another fleet's urgent alert goes in the first run", async () => {
    // A sweep of a 2,500-vehicle fleet finds every vehicle untaxed (an instant kind).
    const registrations = Array.from(
      { length: 2_500 },
      (_, i) => `SR${String(i).padStart(4, "0")}M`,
    );
    const storm = await store.createFleet(
      "Storm",
      {
        columns: [],
        vehicles: registrations.map((registration) => ({
          registration,
          cells: [],
        })),
      },
      { email: "ann@fleet.example", at: clock },
    );
    await store.setAlertRule(
      storm.id,
      {
        ...DEFAULT_ALERT_RULE,
        emails: ["ops@fleet.example"],
        webhookIds: [webhookId],
      },
      clock,
    );
    await store.recordRechecks(
      registrations.map((registration) => ({
        registration,
        at: clock,
        facts: { found: true },
        timeline: [],
        opened: [{ kind: "untaxed" as const, key: "sorn", detail: {} }],
        closed: [],
      })),
    );
    // Then a colleague's fleet finds one vehicle uninsured.
    await open("AB12CDE", lapsed("P-9"));
    await run();
    const firstRun = receiver.deliveries.map((d) => alertsOf(d.body).length);
    // The storm's first batch, then the colleague's alert: not 2,500 POSTs ahead of it.
    expect(firstRun).toEqual([1_000, 1]);
    expect(eventsAt(receiver)).toContain("AB12CDE not-insured");
    const ops = () =>
      inbox.received.filter((r) => r.envelopeTo.includes("ops@fleet.example"));
    expect(ops()).toHaveLength(1);
    expect(textOf(ops()[0]!)).toContain("AB12 CDE");
    for (let i = 0; i < 3; i += 1) {
      clock += MINUTE;
      await run();
    }
    // 2,500 alerts: three signed POSTs and three emails to the storm's address, each once.
    expect(receiver.deliveries).toHaveLength(4);
    expect(
      receiver.deliveries.every((d) => d.verifiedBy.includes("current")),
    ).toBe(true);
    const events = eventsAt(receiver);
    expect(new Set(events).size).toBe(2_501);
    expect(events).toHaveLength(2_501);
    expect(ops()).toHaveLength(3);
    expect(await store.deliveryLog({ limit: 10, status: "pending" })).toEqual(
      [],
    );
  });

  it("signs with the old secret as well as the new for a day after a rotation", async () => {
    await setRule({ emails: [] });
    await receiver.close();
    const oldSecret = (await store.webhooks())[0]!.secret;
    const newSecret = "whsec_" + Buffer.alloc(32, 9).toString("base64");
    receiver = await startReceiver({ old: oldSecret, new: newSecret });
    await store.removeWebhook(webhookId);
    const webhook = await store.addWebhook(
      {
        url: receiver.url,
        description: "Fleet system",
        allowPrivate: true,
        secret: oldSecret,
      },
      clock,
    );
    webhookId = webhook.id;
    await setRule({ emails: [] });
    await store.rotateWebhookSecret(webhook.id, newSecret, clock + 86_400_000);
    await open("AB12CDE", lapsed("P-6"));
    await run();
    clock += 86_400_000;
    await open("LP08SED", ending(14));
    await run();
    expect(receiver.deliveries.map((d) => d.verifiedBy)).toEqual([
      ["old", "new"],
      ["new"],
    ]);
  });
});
