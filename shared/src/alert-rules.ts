import { z } from "zod";
import {
  ALERT_KINDS,
  DailyTimeSchema,
  ENDING_THRESHOLDS,
  type AlertKind,
} from "./watch.ts";

/**
 * Where a watched fleet's alerts go (docs/watching.md, "Alert rules"): each fleet has its own
 * rule, saying which kinds alert, at which "ending" thresholds, to whom by email (instantly for
 * the kinds that need someone now, in the daily digest for the rest) and to which of the team's
 * webhooks. In-app notifications show every alert to every user with the fleet role.
 */

/** Sent at once unless a fleet's rule says otherwise: a vehicle that may not be driven. */
const URGENT_KINDS = [
  "not-insured",
  "mot-expired",
  "untaxed",
  "not-found",
] as const satisfies readonly AlertKind[];

export const ALERT_RULE_MAX_EMAILS = 20;
const ALERT_RULE_MAX_WEBHOOKS = 10;

const KindSchema = z.enum(ALERT_KINDS);
const ThresholdSchema = z.literal(ENDING_THRESHOLDS);

const unique = <T>(items: readonly T[]) => [...new Set(items)];

export const AlertRuleSchema = z.object({
  /** The kinds that alert by email and webhook; an empty list silences the fleet. */
  kinds: z.array(KindSchema).transform(unique),
  /** The "ending" thresholds (days before) that alert. */
  endingDays: z.array(ThresholdSchema).transform(unique),
  emails: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .pipe(
          z.email({
            error: (issue) =>
              `"${String(issue.input)}" is not an email address`,
          }),
        ),
    )
    .max(ALERT_RULE_MAX_EMAILS, {
      error: `A fleet's alerts go to at most ${ALERT_RULE_MAX_EMAILS} email addresses`,
    })
    .transform(unique),
  /** Of `kinds`, those emailed at once; the rest wait for the daily digest. */
  instantKinds: z.array(KindSchema).transform(unique),
  /** The team's webhook endpoints this fleet's alerts are sent to. */
  webhookIds: z
    .array(z.number().int().positive())
    .max(ALERT_RULE_MAX_WEBHOOKS, {
      error: `A fleet's alerts go to at most ${ALERT_RULE_MAX_WEBHOOKS} webhooks`,
    })
    .transform(unique),
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;

/** A fleet that never set a rule: every kind and threshold, urgent ones at once, no one yet. */
export const DEFAULT_ALERT_RULE: AlertRule = {
  kinds: [...ALERT_KINDS],
  endingDays: [...ENDING_THRESHOLDS],
  emails: [],
  instantKinds: [...URGENT_KINDS],
  webhookIds: [],
};

/** Whether `rule` sends an alert: its kind, and for "ending" the threshold it opened at. */
export function ruleTakes(
  rule: AlertRule,
  alert: { kind: AlertKind; detail: Record<string, unknown> },
): boolean {
  if (!rule.kinds.includes(alert.kind)) return false;
  if (alert.kind !== "ending") return true;
  const threshold = Number(alert.detail.threshold);
  return rule.endingDays.some((days) => days === threshold);
}

const WebhookChoiceSchema = z.object({
  id: z.number().int(),
  description: z.string(),
  failing: z.boolean(),
});

/** GET /api/fleets/{id}/alert-rule: the fleet, its rule, and the webhooks it may choose from. */
export const FleetAlertRuleSchema = z.object({
  /** The fleet's id and name, for the page's heading. */
  fleet: z.object({ id: z.string(), name: z.string() }),
  rule: AlertRuleSchema,
  /** False when the proxy has no SMTP server configured: emails would wait, unsent. */
  emailOn: z.boolean(),
  webhooks: z.array(WebhookChoiceSchema),
});

const WEBHOOK_DESCRIPTION_MAX = 80;

/** POST /api/admin/webhooks */
export const NewWebhookSchema = z.object({
  url: z
    .url({
      protocol: /^https?$/,
      error: "Give the webhook's full http(s) address",
    })
    .max(2000),
  description: z
    .string()
    .trim()
    .min(1, { error: "Say what the webhook is for" })
    .max(WEBHOOK_DESCRIPTION_MAX),
  /** Private and loopback addresses are refused unless the admin allows them for this one. */
  allowPrivate: z.boolean().default(false),
});

export const WebhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  allowPrivate: z.boolean(),
  createdAt: z.iso.datetime(),
  /** Set after its deliveries ran out of retries; cleared by the next that arrives. */
  failingSince: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  /** While a rotation's old secret still signs too. */
  previousSecretUntil: z.iso.datetime().nullable(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** The answer that creates or rotates a webhook: its secret, shown this once. */
export const WebhookSecretSchema = z.object({
  webhook: WebhookSchema,
  secret: z.string(),
});

const DELIVERY_CHANNELS = ["email", "webhook"] as const;
export const DELIVERY_STATUSES = [
  /** Waiting for its time (a digest, a retry) or its turn. */
  "pending",
  "sent",
  /** Out of retries: the admin can replay it. */
  "failed",
  /** Not sent, and never will be: the vehicle left the fleet, the address unsubscribed... */
  "dropped",
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DeliveryAttemptSchema = z.object({
  at: z.iso.datetime(),
  ok: z.boolean(),
  /** "250 accepted", "HTTP 500", "connection refused"... */
  detail: z.string(),
});

export const DeliverySchema = z.object({
  id: z.number().int(),
  channel: z.enum(DELIVERY_CHANNELS),
  /** The email address, or the webhook's description. */
  to: z.string(),
  timing: z.enum(["instant", "digest"]),
  status: z.enum(DELIVERY_STATUSES),
  /** Why a delivery was dropped or is failing, in words. */
  note: z.string().nullable(),
  createdAt: z.iso.datetime(),
  nextAttemptAt: z.iso.datetime().nullable(),
  fleet: z.object({ id: z.string(), name: z.string() }),
  registration: z.string(),
  alertId: z.number().int(),
  attempts: z.array(DeliveryAttemptSchema),
});
export type Delivery = z.infer<typeof DeliverySchema>;

/** GET /api/admin/deliveries: the delivery log, newest first. */
export const DeliveryLogSchema = z.object({
  deliveries: z.array(DeliverySchema),
});

/** GET /api/admin/alert-mail; PATCH takes `{ digestTime }`. */
export const AlertMailSettingsSchema = z.object({
  /** "HH:MM", UK time: when the daily digest is sent. */
  digestTime: z.string(),
  emailOn: z.boolean(),
});

/** PATCH /api/admin/alert-mail */
export const DigestTimeSchema = z.object({
  digestTime: DailyTimeSchema.shape.dailyTime,
});

export const ALERT_PATHS = {
  rule: (fleetId: string) =>
    `/api/fleets/${encodeURIComponent(fleetId)}/alert-rule`,
  webhooks: "/api/admin/webhooks",
  webhook: (id: number) => `/api/admin/webhooks/${id}`,
  rotate: (id: number) => `/api/admin/webhooks/${id}/rotate`,
  deliveries: "/api/admin/deliveries",
  replay: (id: number) => `/api/admin/deliveries/${id}/replay`,
  mail: "/api/admin/alert-mail",
  /** Outside /api: a mail client's one-click POST has no session and no app header. */
  unsubscribe: "/unsubscribe",
} as const;
