// The deliveries as a job (decision 044): the handler the job engines run every minute and
// after each sweep, with the proxy's mail server (when ALERT_SMTP_URL is set) and the webhook
// sender. A run that fails is logged and left to the next: its attempts are already recorded.
import type { Logger } from "@vics/server-kit/logger";
import type { AlertMailEnv } from "../../env/alert-mail.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { runDeliveries, type DeliveryReport } from "./delivery-run.ts";
import { createMailer } from "./email/mailer.ts";
import { sendWebhook } from "./webhook/send-webhook.ts";

/** `signal`: the job engine's, aborted when the job's time is up. */
export type DeliveryHandler = (signal?: AbortSignal) => Promise<DeliveryReport>;

/**
 * A run sends for at most this long, well inside its job's expiry: pg-boss would otherwise
 * fail it and let another replica start a second run beside it.
 */
export const DELIVERY_RUN_MS = 10 * 60_000;

export function deliveryHandler(options: {
  store: ProxyStore;
  logger: Logger;
  now: () => number;
  alertMail?: AlertMailEnv;
  appUrl: () => string;
}): DeliveryHandler {
  const { alertMail } = options;
  const mail = alertMail && {
    mailer: createMailer({ url: alertMail.smtpUrl, from: alertMail.from }),
    from: alertMail.from,
  };
  return async (signal) => {
    const started = Date.now();
    const report = await runDeliveries({
      store: options.store,
      now: options.now,
      mail,
      sendWebhook,
      appUrl: options.appUrl,
      shouldStop: () =>
        signal?.aborted === true || Date.now() - started > DELIVERY_RUN_MS,
    });
    if (report.planned + report.sent + report.failed > 0)
      options.logger.info("alert deliveries", { ...report });
    return report;
  };
}
