// One run of the deliveries, the handler both job engines run every minute and after each
// sweep: plan what new alerts are owed, then send the emails and webhooks that are due. With no
// SMTP server configured, emails wait (unsent, in the log) until there is one.
import type { ProxyStore } from "../store/proxy-store.ts";
import { deliverEmails, type MailSender } from "./deliver-emails.ts";
import { deliverWebhooks, type WebhookSender } from "./deliver-webhooks.ts";
import { digestTime } from "../schedule/digest-time.ts";
import { nextDailyAt } from "../schedule/daily-time.ts";
import { planDeliveries } from "./plan-deliveries.ts";

export interface DeliveryRunDeps {
  store: ProxyStore;
  now: () => number;
  /** Undefined when no SMTP server is configured. */
  mail?: { mailer: MailSender; from: string };
  sendWebhook: WebhookSender;
  /** The web app's public origin, for links; asked each run (the port may be known late). */
  appUrl: () => string;
  /** True once the run should send no more (its time is up): the rest wait for the next. */
  shouldStop?: () => boolean;
}

export interface DeliveryReport {
  planned: number;
  sent: number;
  failed: number;
}

export async function runDeliveries(
  deps: DeliveryRunDeps,
): Promise<DeliveryReport> {
  const now = deps.now();
  const appUrl = deps.appUrl();
  const digestAt = nextDailyAt(await digestTime(deps.store), now);
  const planned = await planDeliveries(deps.store, { now, digestAt });
  const emails = deps.mail
    ? await deliverEmails({ ...deps, ...deps.mail, appUrl })
    : { sent: 0, failed: 0 };
  const webhooks = await deliverWebhooks({
    ...deps,
    appUrl,
    send: deps.sendWebhook,
  });
  return {
    planned,
    sent: emails.sent + webhooks.sent,
    failed: emails.failed + webhooks.failed,
  };
}
