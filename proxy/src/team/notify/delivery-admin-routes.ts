// The admin's side of alert deliveries: the team's webhooks (added with a secret shown once,
// its secret rotated with the old one still signing for a day, removed), the delivery log
// with every attempt, replaying a failed delivery, and the daily digest's time. Every change
// is audited.
import { iso, isoOrNull } from "../http/iso-time.ts";
import {
  ALERT_PATHS,
  DigestTimeSchema,
  NewWebhookSchema,
  type Delivery,
  type Webhook,
  DELIVERY_STATUSES,
} from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { okAudit } from "../audit/audit-log.ts";
import { requireRole } from "../auth/session-middleware.ts";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { formBody, readJsonBody } from "../../gateway/http/json-body.ts";
import type { LoggedDelivery, StoredWebhook } from "../store/delivery-store.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { DIGEST_TIME_SETTING, digestTime } from "../schedule/digest-time.ts";
import { nextDailyAt } from "../schedule/daily-time.ts";
import { checkWebhookUrl, type Lookup } from "./webhook/webhook-address.ts";
import { newWebhookSecret } from "./webhook/webhook-secret.ts";

/** How long a rotated-out secret still signs, so receivers can move to the new one. */
const OLD_SECRET_DAYS = 1;
const LOG_SIZE = 200;

export interface DeliveryAdminDeps {
  store: ProxyStore;
  now: () => number;
  /** Whether alert emails go out now (a mail server, and the jobs running). */
  emailOn: () => boolean;
  /** Runs the deliveries soon (after a replay), when the job engine is on. */
  deliverNow?: () => Promise<void>;
  /** For tests: the name lookup of the webhook address check. */
  lookup?: Lookup;
}

const webhookAnswer = (w: StoredWebhook): Webhook => ({
  id: w.id,
  url: w.url,
  description: w.description,
  allowPrivate: w.allowPrivate,
  createdAt: iso(w.createdAt),
  failingSince: isoOrNull(w.failingSince),
  lastError: w.lastError,
  previousSecretUntil: isoOrNull(w.previousUntil),
});

const deliveryAnswer = (
  d: LoggedDelivery,
  webhooks: ReadonlyMap<string, string>,
): Delivery => ({
  id: d.id,
  channel: d.channel,
  to:
    d.channel === "email"
      ? d.target
      : (webhooks.get(d.target) ?? "A removed webhook"),
  timing: d.timing,
  status: d.status,
  note: d.note,
  createdAt: iso(d.createdAt),
  nextAttemptAt: isoOrNull(d.nextAttemptAt),
  fleet: { id: d.fleetId, name: d.fleetName ?? "A deleted fleet" },
  registration: d.registration,
  alertId: d.alertId,
  attempts: d.attemptLog.map((a) => ({ ...a, at: iso(a.at) })),
});

const LogQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
});

export function deliveryAdminTakesBody(c: AppContext): boolean {
  const { method, path } = c.req;
  return (
    (method === "POST" || method === "PATCH") &&
    (path === ALERT_PATHS.mail ||
      path.startsWith(ALERT_PATHS.webhooks) ||
      path.startsWith(ALERT_PATHS.deliveries))
  );
}

const noReplayable = () =>
  new ProblemError(
    404,
    "NOT_FOUND",
    "There is no failed or dropped delivery with that id: only those can be replayed.",
  );

const noSuchWebhook = () =>
  new ProblemError(
    404,
    "NOT_FOUND",
    "There is no such webhook: it may have been removed.",
  );

export function registerDeliveryAdminRoutes(
  app: Hono<AppEnv>,
  deps: DeliveryAdminDeps,
): void {
  const { store, now } = deps;
  const admin = requireRole("admin");
  // An admin's post, with its body's limit: a form's, even where it reads none.
  const form = [admin, formBody] as const;
  const audit = okAudit(store, now);
  /** The route's positive integer id, else `missing()`. */
  const idOf = (c: Context<AppEnv>, missing = noSuchWebhook) => {
    const id = Number(c.req.param("id"));
    if (!Number.isSafeInteger(id) || id <= 0) throw missing();
    return id;
  };

  app.get(ALERT_PATHS.webhooks, admin, async (c) =>
    c.json({ webhooks: (await store.webhooks()).map(webhookAnswer) }),
  );

  app.post(ALERT_PATHS.webhooks, ...form, async (c) => {
    const input = await readJsonBody(c, NewWebhookSchema);
    const check = await checkWebhookUrl(input.url, {
      allowPrivate: input.allowPrivate,
      lookup: deps.lookup,
    });
    if (!check.ok)
      throw new ProblemError(400, "MALFORMED_REQUEST", check.reason);
    const secret = newWebhookSecret();
    const webhook = await store.addWebhook({ ...input, secret }, now());
    await audit(c, "webhook.create", {
      webhook: webhook.description,
      host: check.url.host,
      allowPrivate: webhook.allowPrivate,
    });
    return c.json({ webhook: webhookAnswer(webhook), secret }, 201);
  });

  app.post(`${ALERT_PATHS.webhooks}/:id/rotate`, ...form, async (c) => {
    const secret = newWebhookSecret();
    const webhook = await store.rotateWebhookSecret(
      idOf(c),
      secret,
      now() + OLD_SECRET_DAYS * 86_400_000,
    );
    if (!webhook) throw noSuchWebhook();
    await audit(c, "webhook.rotate", { webhook: webhook.description });
    return c.json({ webhook: webhookAnswer(webhook), secret });
  });

  app.delete(`${ALERT_PATHS.webhooks}/:id`, admin, async (c) => {
    const webhook = await store.removeWebhook(idOf(c));
    if (!webhook) throw noSuchWebhook();
    await audit(c, "webhook.delete", { webhook: webhook.description });
    return c.body(null, 204);
  });

  app.get(ALERT_PATHS.deliveries, admin, async (c) => {
    const query = LogQuerySchema.safeParse(c.req.query());
    if (!query.success)
      throw new ProblemError(
        400,
        "MALFORMED_REQUEST",
        `status is one of ${DELIVERY_STATUSES.join(", ")}.`,
      );
    const [log, webhooks] = await Promise.all([
      store.deliveryLog({ limit: LOG_SIZE, status: query.data.status }),
      store.webhooks(),
    ]);
    const names = new Map(webhooks.map((w) => [String(w.id), w.description]));
    return c.json({ deliveries: log.map((d) => deliveryAnswer(d, names)) });
  });

  app.post(`${ALERT_PATHS.deliveries}/:id/replay`, ...form, async (c) => {
    if (!deps.deliverNow)
      throw new ProblemError(
        503,
        "SERVICE_UNAVAILABLE",
        "Deliveries are not running: they run with the re-checks, which need WATCH_API_KEY_FILE (docs/watching.md).",
      );
    const id = idOf(c, noReplayable);
    if (!(await store.replayDelivery(id, now()))) throw noReplayable();
    await audit(c, "delivery.replay", { delivery: id });
    await deps.deliverNow();
    return c.json({ replayed: id }, 202);
  });

  app.get(ALERT_PATHS.mail, admin, async (c) =>
    c.json({ digestTime: await digestTime(store), emailOn: deps.emailOn() }),
  );

  app.patch(ALERT_PATHS.mail, ...form, async (c) => {
    const { digestTime: time } = await readJsonBody(c, DigestTimeSchema);
    const before = await digestTime(store);
    await store.setWatchSetting(DIGEST_TIME_SETTING, time);
    // Digests already waiting go at the new time.
    await store.rescheduleDigests(nextDailyAt(time, now()));
    await audit(c, "alert-mail.settings", { from: before, to: time });
    return c.json({ digestTime: time, emailOn: deps.emailOn() });
  });
}
