// The routes of alert rules, webhooks, the delivery log and unsubscribing, on a bare app with
// sessions and the SQLite store.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ALERT_PATHS,
  AlertMailSettingsSchema,
  DEFAULT_ALERT_RULE,
  DeliveryLogSchema,
  FleetAlertRuleSchema,
  WebhookSecretSchema,
} from "@vics/shared";
import { registerFleetRoutes } from "../fleets/fleet-routes.ts";
import { jsonRequest, signedInApp } from "../../testing/signed-in-app.ts";
import { registerAlertRuleRoutes } from "./alert-rule-routes.ts";
import { registerDeliveryAdminRoutes } from "./delivery-admin-routes.ts";
import { registerUnsubscribeRoutes } from "./unsubscribe-routes.ts";
import {
  UNSUBSCRIBE_LINK_DAYS,
  unsubscribeKey,
  unsubscribeToken,
} from "./unsubscribe-token.ts";

const NOW = Date.parse("2026-11-27T10:00:00Z");
let harness: ReturnType<typeof signedInApp>;
let fleetId: string;
let deliverNowCalls: number;

beforeEach(async () => {
  deliverNowCalls = 0;
  harness = signedInApp();
  const deps = {
    store: harness.store,
    now: () => NOW,
    emailOn: () => true,
    alertEmails: { domains: ["fleet.example"], maxExternal: 2 },
  };
  registerFleetRoutes(harness.app, deps);
  registerAlertRuleRoutes(harness.app, deps);
  registerDeliveryAdminRoutes(harness.app, {
    ...deps,
    deliverNow: async () => void deliverNowCalls++,
  });
  registerUnsubscribeRoutes(harness.app, deps);
  const fleet = await harness.store.createFleet(
    "Vans",
    { columns: [], vehicles: [{ registration: "LP08SED", cells: [] }] },
    { email: "ann@example.org", at: NOW },
  );
  fleetId = fleet.id;
});
afterEach(() => harness.store.close());

const send = (method: string, path: string, cookie: string, body?: unknown) =>
  harness.app.request(
    path,
    body === undefined
      ? { method, headers: { Cookie: cookie } }
      : jsonRequest(method, body, cookie),
  );

const actions = async () =>
  (await harness.store.searchAudit({ limit: 50 })).map((e) => e.action);

describe("a fleet's alert rule", () => {
  it("starts as the default, is saved whole and audited, for the fleet role only", async () => {
    const { cookie } = await harness.signedIn("fleet");
    const first = FleetAlertRuleSchema.parse(
      await (await send("GET", ALERT_PATHS.rule(fleetId), cookie)).json(),
    );
    expect(first).toEqual({
      fleet: { id: fleetId, name: "Vans" },
      rule: DEFAULT_ALERT_RULE,
      emailOn: true,
      webhooks: [],
    });
    const rule = {
      ...DEFAULT_ALERT_RULE,
      kinds: ["not-insured", "ending"],
      endingDays: [14, 7],
      emails: [" Ops@Fleet.example ", "cover@fleet.example"],
    };
    const saved = await send("PUT", ALERT_PATHS.rule(fleetId), cookie, rule);
    expect(saved.status).toBe(200);
    expect(await harness.store.alertRule(fleetId)).toEqual({
      ...rule,
      emails: ["ops@fleet.example", "cover@fleet.example"],
    });
    expect(await actions()).toContain("fleet.alert-rule");

    const staff = await harness.signedIn("staff");
    expect(
      (await send("GET", ALERT_PATHS.rule(fleetId), staff.cookie)).status,
    ).toBe(403);
  });

  it("refuses an address that is not one, and a webhook that does not exist, in words", async () => {
    const { cookie } = await harness.signedIn("fleet");
    const badEmail = await send("PUT", ALERT_PATHS.rule(fleetId), cookie, {
      ...DEFAULT_ALERT_RULE,
      emails: ["ops at fleet"],
    });
    expect(badEmail.status).toBe(400);
    expect(JSON.stringify(await badEmail.json())).toContain(
      '\\"ops at fleet\\" is not an email address',
    );
    const badHook = await send("PUT", ALERT_PATHS.rule(fleetId), cookie, {
      ...DEFAULT_ALERT_RULE,
      webhookIds: [42],
    });
    expect(badHook.status).toBe(400);
    expect(((await badHook.json()) as { detail: string }).detail).toContain(
      "There is no webhook 42",
    );
    expect(
      (await send("GET", ALERT_PATHS.rule("no-such-fleet"), cookie)).status,
    ).toBe(404);
  });
});

describe("addresses outside the team's email domains", () => {
  const withEmails = (emails: string[]) => ({
    ...DEFAULT_ALERT_RULE,
    emails,
  });
  const put = (cookie: string, body: unknown) =>
    send("PUT", ALERT_PATHS.rule(fleetId), cookie, body);
  const detailOf = async (response: Response) =>
    (await response.json()) as { code: string; detail: string };

  it("only an admin adds one; a fleet user is told so, and may keep one an admin added", async () => {
    const fleet = await harness.signedIn("fleet");
    const refused = await put(
      fleet.cookie,
      withEmails(["ops@fleet.example", "me@gmail.example"]),
    );
    expect(refused.status).toBe(403);
    const problem = await detailOf(refused);
    expect(problem.code).toBe("FORBIDDEN");
    expect(problem.detail).toContain("me@gmail.example");
    expect(problem.detail).toContain("fleet.example");
    expect(problem.detail).toMatch(/an admin must add it/i);
    expect(await harness.store.alertRule(fleetId)).toBeUndefined();
    // A team domain's subdomains are the team's.
    expect(
      (await put(fleet.cookie, withEmails(["ops@depot.fleet.example"]))).status,
    ).toBe(200);

    const admin = await harness.signedIn("admin");
    const added = withEmails(["ops@fleet.example", "me@gmail.example"]);
    expect((await put(admin.cookie, added)).status).toBe(200);
    const changed = { ...added, kinds: ["untaxed"] };
    expect((await put(fleet.cookie, changed)).status).toBe(200);
    expect(await harness.store.alertRule(fleetId)).toEqual(changed);
  });

  it("are at most the configured number, for an admin too", async () => {
    const admin = await harness.signedIn("admin");
    const refused = await put(
      admin.cookie,
      withEmails(["a@one.example", "b@two.example", "c@three.example"]),
    );
    expect(refused.status).toBe(400);
    const problem = await detailOf(refused);
    expect(problem.detail).toContain(
      "at most 2 addresses outside the team's email domains",
    );
    expect(await harness.store.alertRule(fleetId)).toBeUndefined();
  });

  it("are judged against the team's accounts' domains when none are configured", async () => {
    const own = signedInApp();
    try {
      registerFleetRoutes(own.app, { store: own.store, now: () => NOW });
      registerAlertRuleRoutes(own.app, {
        store: own.store,
        now: () => NOW,
        emailOn: () => true,
      });
      const fleet = await own.store.createFleet(
        "Vans",
        { columns: [], vehicles: [{ registration: "LP08SED", cells: [] }] },
        { email: "ann@example.org", at: NOW },
      );
      const { cookie } = await own.signedIn("fleet"); // fleet1@example.org
      const put = (emails: string[]) =>
        own.app.request(
          ALERT_PATHS.rule(fleet.id),
          jsonRequest("PUT", withEmails(emails), cookie),
        );
      expect((await put(["ops@example.org"])).status).toBe(200);
      expect((await put(["ops@elsewhere.example"])).status).toBe(403);
    } finally {
      own.store.close();
    }
  });
});

describe("a rule changed", () => {
  it("drops the fleet's pending deliveries it no longer wants, at once", async () => {
    const webhook = await harness.store.addWebhook(
      {
        url: "https://hooks.example.org/vics",
        description: "Fleet system",
        allowPrivate: false,
        secret: "whsec_x",
      },
      NOW,
    );
    const rule = {
      ...DEFAULT_ALERT_RULE,
      emails: ["ops@fleet.example"],
      webhookIds: [webhook.id],
    };
    await harness.store.setAlertRule(fleetId, rule, NOW);
    const [alert] = await harness.store.recordRechecks([
      {
        registration: "LP08SED",
        at: NOW,
        facts: { found: true },
        timeline: [],
        opened: [{ kind: "untaxed", key: "sorn", detail: {} }],
        closed: [],
      },
    ]);
    const owed = (channel: "email" | "webhook", target: string) => ({
      alertId: alert!.id,
      fleetId,
      channel,
      target,
      timing: "instant" as const,
      dueAt: NOW + 3_600_000,
    });
    await harness.store.planDeliveries(
      [alert!.id],
      [owed("email", "ops@fleet.example"), owed("webhook", String(webhook.id))],
      NOW,
    );
    const { cookie } = await harness.signedIn("fleet");
    // Silenced: no kind alerts any more.
    const saved = await send("PUT", ALERT_PATHS.rule(fleetId), cookie, {
      ...rule,
      kinds: [],
    });
    expect(saved.status).toBe(200);
    expect(await harness.store.fleetPendingDeliveries(fleetId)).toEqual([]);
    const log = await harness.store.deliveryLog({ limit: 10 });
    expect(log.map((d) => [d.channel, d.status, d.note])).toEqual([
      ["webhook", "dropped", "The fleet's alert rule no longer sends this"],
      ["email", "dropped", "The fleet's alert rule no longer sends this"],
    ]);
  });
});

describe("the team's webhooks", () => {
  it("refuses loopback and private addresses unless the admin allows them", async () => {
    const { cookie } = await harness.signedIn("admin");
    for (const url of ["http://127.0.0.1:9/hook", "http://10.0.0.1/hook"]) {
      const refused = await send("POST", ALERT_PATHS.webhooks, cookie, {
        url,
        description: "Inside",
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(
        /loopback|private/,
      );
    }
    const allowed = await send("POST", ALERT_PATHS.webhooks, cookie, {
      url: "http://127.0.0.1:9/hook",
      description: "On this machine",
      allowPrivate: true,
    });
    expect(allowed.status).toBe(201);
    const { webhook, secret } = WebhookSecretSchema.parse(await allowed.json());
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({ allowPrivate: true, failingSince: null });
    // The secret is shown once: never in the list.
    const list = await (await send("GET", ALERT_PATHS.webhooks, cookie)).text();
    expect(list).toContain("On this machine");
    expect(list).not.toContain(secret);
  });

  it("rotates a secret keeping the old one for a day, removes a webhook, all audited, for admins only", async () => {
    const { cookie } = await harness.signedIn("admin");
    const created = WebhookSecretSchema.parse(
      await (
        await send("POST", ALERT_PATHS.webhooks, cookie, {
          url: "http://127.0.0.1:9/hook",
          description: "Fleet system",
          allowPrivate: true,
        })
      ).json(),
    );
    const rotated = WebhookSecretSchema.parse(
      await (
        await send("POST", ALERT_PATHS.rotate(created.webhook.id), cookie)
      ).json(),
    );
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.webhook.previousSecretUntil).toBe(
      new Date(NOW + 86_400_000).toISOString(),
    );
    const [stored] = await harness.store.webhooks();
    expect(stored).toMatchObject({
      secret: rotated.secret,
      previousSecret: created.secret,
    });

    const fleet = await harness.signedIn("fleet");
    expect(
      (
        await send(
          "DELETE",
          ALERT_PATHS.webhook(created.webhook.id),
          fleet.cookie,
        )
      ).status,
    ).toBe(403);
    expect(
      (await send("DELETE", ALERT_PATHS.webhook(created.webhook.id), cookie))
        .status,
    ).toBe(204);
    expect(
      (await send("DELETE", ALERT_PATHS.webhook(created.webhook.id), cookie))
        .status,
    ).toBe(404);
    expect(await actions()).toEqual(
      expect.arrayContaining([
        "webhook.create",
        "webhook.rotate",
        "webhook.delete",
      ]),
    );
  });
});

describe("the delivery log and the digest's time", () => {
  async function failedDelivery() {
    const [alert] = await harness.store.recordRechecks([
      {
        registration: "LP08SED",
        at: NOW,
        facts: { found: true },
        timeline: [],
        opened: [{ kind: "untaxed", key: "sorn since 2026-11-27", detail: {} }],
        closed: [],
      },
    ]);
    await harness.store.planDeliveries(
      [alert!.id],
      [
        {
          alertId: alert!.id,
          fleetId,
          channel: "email",
          target: "ops@fleet.example",
          timing: "digest",
          dueAt: NOW,
        },
      ],
      NOW,
    );
    const [delivery] = await harness.store.deliveryLog({ limit: 1 });
    await harness.store.recordAttempt(
      [delivery!.id],
      { at: NOW, ok: false, detail: "connection refused" },
      {
        status: "failed",
        note: "Gave up after 8 attempts: connection refused",
      },
    );
    return delivery!.id;
  }

  it("lists deliveries with every attempt, and replays a failed one", async () => {
    const id = await failedDelivery();
    const { cookie } = await harness.signedIn("admin");
    const log = DeliveryLogSchema.parse(
      await (
        await send("GET", `${ALERT_PATHS.deliveries}?status=failed`, cookie)
      ).json(),
    );
    expect(log.deliveries).toEqual([
      expect.objectContaining({
        id,
        channel: "email",
        to: "ops@fleet.example",
        status: "failed",
        registration: "LP08SED",
        fleet: { id: fleetId, name: "Vans" },
        attempts: [
          {
            at: new Date(NOW).toISOString(),
            ok: false,
            detail: "connection refused",
          },
        ],
      }),
    ]);
    expect(
      (await send("GET", `${ALERT_PATHS.deliveries}?status=lost`, cookie))
        .status,
    ).toBe(400);
    expect((await send("POST", ALERT_PATHS.replay(id), cookie)).status).toBe(
      202,
    );
    expect(deliverNowCalls).toBe(1);
    expect((await send("POST", ALERT_PATHS.replay(id), cookie)).status).toBe(
      404,
    );
    const [replayed] = await harness.store.deliveryLog({ limit: 1 });
    expect(replayed).toMatchObject({ status: "pending", attempts: 0 });
    expect(await actions()).toContain("delivery.replay");
  });

  it("refuses a replay while deliveries are not running, replaying nothing", async () => {
    const id = await failedDelivery();
    const bare = signedInApp();
    registerDeliveryAdminRoutes(bare.app, {
      store: harness.store,
      now: () => NOW,
      emailOn: () => false,
    });
    const admin = await bare.signedIn("admin");
    const answer = await bare.app.request(ALERT_PATHS.replay(id), {
      method: "POST",
      headers: { Cookie: admin.cookie },
    });
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { detail: string }).detail).toMatch(
      /WATCH_API_KEY_FILE/,
    );
    const [still] = await harness.store.deliveryLog({ limit: 1 });
    expect(still!.status).toBe("failed");
    await bare.store.close();
  });

  it("moves the digest's time, and the digests waiting with it", async () => {
    const id = await failedDelivery();
    await harness.store.replayDelivery(id, NOW + 3_600_000);
    const { cookie } = await harness.signedIn("admin");
    expect(
      AlertMailSettingsSchema.parse(
        await (await send("GET", ALERT_PATHS.mail, cookie)).json(),
      ),
    ).toEqual({ digestTime: "07:00", emailOn: true });
    expect(
      (await send("PATCH", ALERT_PATHS.mail, cookie, { digestTime: "7am" }))
        .status,
    ).toBe(400);
    const moved = await send("PATCH", ALERT_PATHS.mail, cookie, {
      digestTime: "18:30",
    });
    expect(moved.status).toBe(200);
    const [waiting] = await harness.store.deliveryLog({ limit: 1 });
    expect(waiting!.nextAttemptAt).toBe(Date.parse("2026-11-27T18:30:00Z"));
    expect(await actions()).toContain("alert-mail.settings");
  });
});

describe("one-click unsubscribe", () => {
  it("asks on GET, takes the address off the fleet's rule on POST, and refuses a forged link", async () => {
    await harness.store.setAlertRule(
      fleetId,
      {
        ...DEFAULT_ALERT_RULE,
        emails: ["ops@fleet.example", "cover@fleet.example"],
      },
      NOW,
    );
    const token = unsubscribeToken(await unsubscribeKey(harness.store), {
      email: "ops@fleet.example",
      fleets: [fleetId],
      sentAt: NOW,
    });
    const url = `${ALERT_PATHS.unsubscribe}?token=${token}`;
    const page = await harness.app.request(url);
    expect(page.status).toBe(200);
    const words = await page.text();
    expect(words).toContain("Vans");
    expect(words).toContain('<form method="post"');
    // Opening the link changes nothing.
    expect((await harness.store.alertRule(fleetId))!.emails).toHaveLength(2);

    const done = await harness.app.request(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(done.status).toBe(200);
    expect((await harness.store.alertRule(fleetId))!.emails).toEqual([
      "cover@fleet.example",
    ]);
    expect(await actions()).toContain("alert-rule.unsubscribe");

    const forged = await harness.app.request(
      `${ALERT_PATHS.unsubscribe}?token=${token.replace(/.$/, "x")}x`,
      { method: "POST" },
    );
    expect(forged.status).toBe(400);
    expect((await harness.store.alertRule(fleetId))!.emails).toHaveLength(1);
  });
});

describe("an unsubscribe link out of time", () => {
  const DAY = 86_400_000;
  const rule = {
    ...DEFAULT_ALERT_RULE,
    emails: ["ops@fleet.example", "cover@fleet.example"],
  };
  /** An alert email to `email` that the mail server took at `at`. */
  async function emailSent(email: string, at: number) {
    const [alert] = await harness.store.recordRechecks([
      {
        registration: "LP08SED",
        at,
        facts: { found: true },
        timeline: [],
        opened: [{ kind: "untaxed", key: `sorn ${at}`, detail: {} }],
        closed: [],
      },
    ]);
    await harness.store.planDeliveries(
      [alert!.id],
      [
        {
          alertId: alert!.id,
          fleetId,
          channel: "email",
          target: email,
          timing: "instant",
          dueAt: at,
        },
      ],
      at,
    );
    const [delivery] = await harness.store.deliveryLog({ limit: 1 });
    await harness.store.recordAttempt(
      [delivery!.id],
      { at, ok: true, detail: "Taken by the mail server" },
      { status: "sent" },
    );
  }
  const link = async (sentAt: number) =>
    `${ALERT_PATHS.unsubscribe}?token=${unsubscribeToken(
      await unsubscribeKey(harness.store),
      { email: "ops@fleet.example", fleets: [fleetId], sentAt },
    )}`;
  const post = (url: string) =>
    harness.app.request(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });

  it("is refused with a page that says how to stop the emails from the account", async () => {
    await harness.store.setAlertRule(fleetId, rule, NOW);
    const old = NOW - (UNSUBSCRIBE_LINK_DAYS + 1) * DAY;
    await emailSent("ops@fleet.example", old);
    await emailSent("ops@fleet.example", NOW - DAY);
    const url = await link(old);
    for (const answer of [await harness.app.request(url), await post(url)]) {
      expect(answer.status).toBe(410);
      const words = await answer.text();
      expect(words).toContain("This link has expired");
      expect(words).toContain(`${UNSUBSCRIBE_LINK_DAYS} days`);
      expect(words).toContain(`href="/fleets/${fleetId}/alerts"`);
      expect(words).toContain("newest alert email");
      expect(words).not.toContain("<form");
    }
    expect((await harness.store.alertRule(fleetId))!.emails).toHaveLength(2);
  });

  it("still works from the newest email the address was sent, however old", async () => {
    await harness.store.setAlertRule(fleetId, rule, NOW);
    const old = NOW - (UNSUBSCRIBE_LINK_DAYS + 30) * DAY;
    await emailSent("ops@fleet.example", old - DAY);
    await emailSent("ops@fleet.example", old);
    await emailSent("cover@fleet.example", NOW - DAY);
    const url = await link(old);
    expect((await harness.app.request(url)).status).toBe(200);
    expect((await post(url)).status).toBe(200);
    expect((await harness.store.alertRule(fleetId))!.emails).toEqual([
      "cover@fleet.example",
    ]);
  });

  describe("made before links carried their email's time", () => {
    /** A link with no date, as every email sent before the upgrade to dated links holds. */
    const undated = async () =>
      `${ALERT_PATHS.unsubscribe}?token=${unsubscribeToken(
        await unsubscribeKey(harness.store),
        { email: "ops@fleet.example", fleets: [fleetId] },
      )}`;
    const upgradedAt = (at: number) =>
      vi
        .spyOn(harness.store, "unsubscribeLinksDatedFrom")
        .mockResolvedValue(at);

    it("works within its days of the upgrade, as if sent then, whatever was sent since", async () => {
      await harness.store.setAlertRule(fleetId, rule, NOW);
      const upgrade = NOW - (UNSUBSCRIBE_LINK_DAYS - 1) * DAY;
      upgradedAt(upgrade);
      await emailSent("ops@fleet.example", upgrade - DAY);
      await emailSent("ops@fleet.example", NOW - DAY);
      const url = await undated();
      expect((await harness.app.request(url)).status).toBe(200);
      expect((await post(url)).status).toBe(200);
      expect((await harness.store.alertRule(fleetId))!.emails).toEqual([
        "cover@fleet.example",
      ]);
    });

    it("works after those days while no email has been sent to its address since the upgrade", async () => {
      await harness.store.setAlertRule(fleetId, rule, NOW);
      const upgrade = NOW - (UNSUBSCRIBE_LINK_DAYS + 30) * DAY;
      upgradedAt(upgrade);
      await emailSent("ops@fleet.example", upgrade - DAY);
      await emailSent("cover@fleet.example", NOW - DAY);
      const url = await undated();
      expect((await harness.app.request(url)).status).toBe(200);
      expect((await post(url)).status).toBe(200);
      expect((await harness.store.alertRule(fleetId))!.emails).toEqual([
        "cover@fleet.example",
      ]);
    });

    it("is refused after those days once a newer email was sent to its address", async () => {
      await harness.store.setAlertRule(fleetId, rule, NOW);
      const upgrade = NOW - (UNSUBSCRIBE_LINK_DAYS + 1) * DAY;
      upgradedAt(upgrade);
      await emailSent("ops@fleet.example", upgrade - DAY);
      await emailSent("ops@fleet.example", NOW - DAY);
      const url = await undated();
      expect((await harness.app.request(url)).status).toBe(410);
      expect((await post(url)).status).toBe(410);
      expect((await harness.store.alertRule(fleetId))!.emails).toHaveLength(2);
    });

    it("works in a store made now, whose upgrade is its making", async () => {
      await harness.store.setAlertRule(fleetId, rule, NOW);
      await emailSent("ops@fleet.example", NOW - DAY);
      expect((await post(await undated())).status).toBe(200);
    });
  });

  it("works within its days whatever was sent since", async () => {
    await harness.store.setAlertRule(fleetId, rule, NOW);
    const sentAt = NOW - (UNSUBSCRIBE_LINK_DAYS - 1) * DAY;
    await emailSent("ops@fleet.example", sentAt);
    await emailSent("ops@fleet.example", NOW - DAY);
    expect((await post(await link(sentAt))).status).toBe(200);
    expect((await harness.store.alertRule(fleetId))!.emails).toEqual([
      "cover@fleet.example",
    ]);
  });
});
