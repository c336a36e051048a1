// An audit event in words for the audit table: what was done, how it ended, when (UK time).
import {
  UK_TIME_ZONE,
  type AuditAction,
  type AuditEventAnswer,
} from "@vics/shared";

export const ACTION_WORDS: Record<AuditAction, string> = {
  "check.insurance": "Insurance check",
  "check.compliance": "Compliance check",
  "check.bulk-insurance": "Fleet insurance check",
  "check.bulk-compliance": "Fleet compliance check",
  "sign-in": "Signed in",
  "sign-in.failed": "Sign-in refused",
  "sign-out": "Signed out",
  "user.invite": "Invited a user",
  "user.create": "Created a user",
  "user.role": "Changed a role",
  "user.disable": "Disabled a user",
  "user.enable": "Enabled a user",
  "user.reset": "Sent a password reset",
  "user.password": "Set a password",
  "user.oidc-link": "Linked an organisation sign-in",
  "user.oidc-unlink": "Unlinked an organisation sign-in",
  "user.oidc-allow": "Allowed an organisation sign-in to link",
  "key.rotate": "Changed the service’s API key",
  "fleet.create": "Saved a fleet",
  "fleet.update": "Updated a fleet’s vehicles",
  "fleet.rename": "Renamed a fleet",
  "fleet.delete": "Deleted a fleet",
  "fleet.check-now": "Checked a fleet now",
  "watch.schedule": "Changed the daily re-check time",
  "fleet.alert-rule": "Changed a fleet’s alert rule",
  "alert-rule.unsubscribe": "Unsubscribed from a fleet’s emails",
  "webhook.create": "Added a webhook",
  "webhook.rotate": "Rotated a webhook’s secret",
  "webhook.delete": "Removed a webhook",
  "delivery.replay": "Replayed an alert delivery",
  "alert-mail.settings": "Changed the daily digest’s time",
  "access.refused": "Refused: needs another role",
  "audit.read": "Read the audit log",
  "audit.export": "Downloaded the audit log",
};

const STATUS_WORDS: Record<string, string> = {
  "200": "Answered",
  "201": "Done",
  "204": "Done",
  "400": "Refused: not valid",
  "401": "Refused: not signed in",
  "403": "Refused: not allowed",
  "404": "Not found",
  "413": "Refused: too large",
  "429": "Refused: too many requests",
  "502": "Failed: no answer from the service",
  "504": "Failed: the service took too long",
};

/** "Answered (200)" for a status, "Done" for "ok", else the proxy's words with a capital. */
export function outcomeWords(outcome: string): string {
  if (/^\d{3}$/.test(outcome)) {
    const words =
      STATUS_WORDS[outcome] ??
      (outcome.startsWith("5")
        ? "Failed"
        : outcome.startsWith("4")
          ? "Refused"
          : "Answered");
    return `${words} (${outcome})`;
  }
  if (outcome.toLowerCase() === "ok") return "Done";
  return outcome.charAt(0).toUpperCase() + outcome.slice(1);
}

/** The event's other facts ("user: bob@example.org, role: fleet"), or "" when it has none. */
export function detailWords(event: AuditEventAnswer): string {
  return Object.entries(event.detail ?? {})
    .filter(([, value]) => value !== null && value !== "")
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(", ");
}

const timeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: UK_TIME_ZONE,
});

/** "27 Nov 2026, 14:05:09", in UK time whatever the computer's zone. */
export function auditTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : timeFormat.format(date);
}
