import { valueOrFile } from "@vics/server-kit/env-fields";
import { smtpServer } from "../team/notify/email/mailer.ts";
import { REPO_ROOT } from "./paths.ts";

export interface AlertMailEnv {
  /** smtp:// or smtps://, perhaps with a login: a secret, never logged. */
  smtpUrl: string;
  from: string;
}

/**
 * Alert emails' SMTP server (ALERT_SMTP_URL, or ALERT_SMTP_URL_FILE when it holds a password)
 * and sender (ALERT_MAIL_FROM); unset: alert emails wait, unsent, until there is one.
 */
export function readAlertMail(
  present: Record<string, string>,
): AlertMailEnv | { error: string } | undefined {
  const read = valueOrFile(present, "ALERT_SMTP_URL", REPO_ROOT);
  if (read === undefined || "error" in read) return read;
  const smtpUrl = read.value;
  try {
    smtpServer(smtpUrl);
  } catch (error) {
    return { error: `ALERT_SMTP_URL: ${(error as Error).message}` };
  }
  const from = present.ALERT_MAIL_FROM?.trim();
  if (!from)
    return {
      error:
        'ALERT_SMTP_URL also needs ALERT_MAIL_FROM, the sender of alert emails (e.g. "VICS <vics@fleet.example>")',
    };
  return { smtpUrl, from };
}
