/**
 * Where watched fleets' alerts go, in the proxy's store: each fleet's alert rule, the team's
 * webhooks, and the deliveries an alert is owed (an email to an address, a webhook to an
 * endpoint), each at most once per (alert, fleet, channel, target) however often planning runs,
 * with every attempt to send it (the delivery log).
 */
import type { AlertRule, DeliveryStatus } from "@vics/shared";
import type { StoredAlert } from "./watch-store.ts";

export type DeliveryChannel = "email" | "webhook";
export type DeliveryTiming = "instant" | "digest";

export interface StoredWebhook {
  id: number;
  url: string;
  description: string;
  allowPrivate: boolean;
  secret: string;
  /** The secret before a rotation, which still signs until `previousUntil`. */
  previousSecret: string | null;
  previousUntil: number | null;
  createdAt: number;
  failingSince: number | null;
  lastError: string | null;
}

/** A fleet that holds an alert's vehicle now, with its rule (the default when it set none). */
export interface AlertFleet {
  registration: string;
  fleetId: string;
  fleetName: string;
  rule: AlertRule;
}

export interface NewDelivery {
  alertId: number;
  fleetId: string;
  channel: DeliveryChannel;
  /** The email address, or the webhook's id. */
  target: string;
  timing: DeliveryTiming;
  /** When it is first due: now, or the next digest. */
  dueAt: number;
}

export interface StoredDelivery {
  id: number;
  alertId: number;
  fleetId: string;
  channel: DeliveryChannel;
  target: string;
  timing: DeliveryTiming;
  status: DeliveryStatus;
  note: string | null;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
}

/** A pending delivery with what sending it needs. */
export interface PendingDelivery extends StoredDelivery {
  alert: StoredAlert;
  /** Undefined when the fleet is gone. */
  fleetName: string | undefined;
  /** False once the vehicle has left the fleet (sold): it falls silent. */
  stillInFleet: boolean;
  /** The fleet's rule as it is now (the default when it set none). */
  rule: AlertRule;
}

export interface DeliveryAttempt {
  at: number;
  ok: boolean;
  detail: string;
}

export interface LoggedDelivery extends StoredDelivery {
  registration: string;
  fleetName: string | undefined;
  attemptLog: DeliveryAttempt[];
}

/** After an attempt: sent, tried again at `nextAttemptAt`, or failed for good. */
export type AttemptOutcome =
  | { status: "sent" }
  | { status: "pending"; nextAttemptAt: number; note: string }
  | { status: "failed"; note: string };

/**
 * The pending deliveries of one channel and endpoint, for the metrics: a webhook by its id,
 * every email as one (the mail server), never an address.
 */
export interface PendingDeliveryCount {
  channel: DeliveryChannel;
  /** The webhook's id; undefined for email. */
  webhookId?: number;
  pending: number;
  /** Of them, those due by `now`. */
  due: number;
  /** When the oldest of those due came due; undefined when none is. */
  oldestDueAt?: number;
}

export interface DeliveryStore {
  /** Undefined when the fleet never set one. */
  alertRule(fleetId: string): Promise<AlertRule | undefined>;
  setAlertRule(fleetId: string, rule: AlertRule, at: number): Promise<void>;
  /** Alerts whose deliveries are not planned yet, oldest first. */
  unplannedAlerts(limit: number): Promise<StoredAlert[]>;
  /** The fleets holding each of these vehicles now, with their rules. */
  alertFleets(registrations: readonly string[]): Promise<AlertFleet[]>;
  /**
   * In one transaction: adds the deliveries (one already there for its alert, fleet, channel
   * and target is left as it is) and marks the alerts planned.
   */
  planDeliveries(
    alertIds: readonly number[],
    deliveries: readonly NewDelivery[],
    at: number,
  ): Promise<void>;
  /**
   * Emails due by `now`; webhooks: pending ones, due or not (the sender holds the newer behind
   * one that waits for a retry). Either way, of each (target, timing, fleet) queue only the
   * oldest FLEET_BATCH (delivery-rows.ts), queue heads first: fair between fleets.
   */
  pendingDeliveries(
    channel: DeliveryChannel,
    now: number,
    limit: number,
  ): Promise<PendingDelivery[]>;
  /** The pending deliveries by channel and endpoint (webhook): one cheap read, for the metrics. */
  pendingDeliveryCounts(now: number): Promise<PendingDeliveryCount[]>;
  /** A fleet's pending deliveries, oldest first (judged again when its rule changes). */
  fleetPendingDeliveries(fleetId: string): Promise<PendingDelivery[]>;
  /** Records one attempt at each of these deliveries, and where each stands after it. */
  recordAttempt(
    ids: readonly number[],
    attempt: DeliveryAttempt,
    outcome: AttemptOutcome,
  ): Promise<void>;
  /** Never to be sent, with why. */
  dropDeliveries(ids: readonly number[], note: string): Promise<void>;
  /** The delivery log, newest first, with each attempt. */
  deliveryLog(options: {
    limit: number;
    status?: DeliveryStatus;
  }): Promise<LoggedDelivery[]>;
  /** A failed (or dropped) delivery pending again, due at `at`; false if there is none. */
  replayDelivery(id: number, at: number): Promise<boolean>;
  /** Pending digest deliveries not yet tried become due at `dueAt` (the digest time moved). */
  rescheduleDigests(dueAt: number): Promise<void>;

  webhooks(): Promise<StoredWebhook[]>;
  addWebhook(
    webhook: Pick<
      StoredWebhook,
      "url" | "description" | "allowPrivate" | "secret"
    >,
    at: number,
  ): Promise<StoredWebhook>;
  /**
   * Removes it, takes it out of every fleet's rule and drops its waiting deliveries, in one
   * transaction; undefined when there is no such webhook.
   */
  removeWebhook(id: number): Promise<StoredWebhook | undefined>;
  /** The new secret signs from now; the old one too until `previousUntil`. */
  rotateWebhookSecret(
    id: number,
    secret: string,
    previousUntil: number,
  ): Promise<StoredWebhook | undefined>;
  /** Failing since `since` with `error`, or (null) arriving again. */
  setWebhookFailing(
    id: number,
    failing: { since: number; error: string } | null,
  ): Promise<void>;
  /** When the mail server last took an alert email to `email`; null if it never did. */
  lastEmailSentAt(email: string): Promise<number | null>;
  /**
   * When the store began to date unsubscribe links (ms): the upgrade that did, or a new store's
   * making. A link from an email sent before carries no date, and counts as sent then.
   */
  unsubscribeLinksDatedFrom(): Promise<number>;
}
