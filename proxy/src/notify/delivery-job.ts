// The deliveries as a job (decision 044): the handler the job engines run every minute and
// after each sweep, with the proxy's mail server (when ALERT_SMTP_URL is set) and the webhook
// sender. A run that fails is logged and left to the next: its attempts are already recorded.
import type { Logger } from "@vics/shared/server/logger";
import type { AlertMailEnv } from "../env.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { runDeliveries, type DeliveryReport } from "./delivery-run.ts";
import { createMailer } from "./email/mailer.ts";
import { sendWebhook } from "./webhook/send-webhook.ts";

export type DeliveryHandler = () => Promise<DeliveryReport>;

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
  return async () => {
    const report = await runDeliveries({
      store: options.store,
      now: options.now,
      mail,
      sendWebhook,
      appUrl: options.appUrl,
    });
    if (report.planned + report.sent + report.failed > 0)
      options.logger.info("alert deliveries", { ...report });
    return report;
  };
}
