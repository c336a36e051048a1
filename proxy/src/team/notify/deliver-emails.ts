// Sends the alert emails that are due: one email per address and timing holds every alert due
// to it (the instant ones of a sweep together, the day's digest together), so a sweep that
// finds ten lapses sends one email, not ten. Sent or not, each attempt is in the delivery log;
// an email the SMTP server did not take is tried again later (retry-schedule.ts), as one email.
import { createHash } from "node:crypto";
import { ukDate } from "@vics/shared";
import type { ProxyStore } from "../store/proxy-store.ts";
import type { PendingDelivery } from "../store/delivery-store.ts";
import { alertMail } from "./email/alert-mail.ts";
import type { Mailer } from "./email/mailer.ts";
import { afterFailure } from "./retry-schedule.ts";
import { keepWanted } from "./still-wanted.ts";
import { unsubscribeKey, unsubscribeToken } from "./unsubscribe-token.ts";

/** What sending needs of the mailer (email/mailer.ts; a test may give its own). */
export type MailSender = Pick<Mailer, "send">;

interface EmailDeps {
  store: ProxyStore;
  now: () => number;
  mailer: MailSender;
  from: string;
  /** The app's public origin, for links to the vehicles and the unsubscribe link. */
  /** True once the run should send no more: what is left waits for the next run. */
  shouldStop?: () => boolean;
  appUrl: string;
}

// Each (address, timing, fleet) queue gives at most FLEET_BATCH of these, queue heads first
// (delivery-rows.ts): a storm to 20 addresses still leaves every address its email this run.
const LIMIT = 20_000;

const errorWords = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

/** Stable across retries, so a mail client could tell a repeat. */
function messageId(ids: readonly number[], from: string): string {
  const hash = createHash("sha256").update(ids.join(",")).digest("hex");
  const domain = from.split("@").at(-1)?.replace(/>$/, "") || "vics.invalid";
  return `<alerts-${hash.slice(0, 24)}@${domain}>`;
}

export async function deliverEmails(
  deps: EmailDeps,
): Promise<{ sent: number; failed: number }> {
  const { store } = deps;
  const now = deps.now();
  const due = await keepWanted(
    store,
    await store.pendingDeliveries("email", now, LIMIT),
  );
  const groups = Map.groupBy(due, (d) => `${d.timing} ${d.target}`);
  const key = groups.size > 0 ? await unsubscribeKey(store) : undefined;
  let sent = 0;
  let failed = 0;
  for (const group of groups.values()) {
    if (deps.shouldStop?.()) break;
    const first = group[0]!;
    const ids = group.map((d) => d.id);
    const fleets = [...new Set(group.map((d) => d.fleetId))];
    const token = unsubscribeToken(key!, {
      email: first.target,
      fleets,
      sentAt: now,
    });
    try {
      const message = alertMail({
        from: deps.from,
        to: first.target,
        timing: first.timing,
        day: ukDate(new Date(now)),
        alerts: group.map((d: PendingDelivery) => ({
          alert: d.alert,
          fleet: { id: d.fleetId, name: d.fleetName! },
        })),
        appUrl: deps.appUrl,
        unsubscribeUrl: `${deps.appUrl}/unsubscribe?token=${token}`,
        messageId: messageId(ids, deps.from),
      });
      await deps.mailer.send(message);
    } catch (error) {
      const words = errorWords(error);
      // Each delivery by its own count: one new to the group is not given up with the old.
      const byAttempt = Map.groupBy(group, (d) => d.attempts + 1);
      for (const [attempt, same] of byAttempt)
        await store.recordAttempt(
          same.map((d) => d.id),
          { at: now, ok: false, detail: words },
          afterFailure(attempt, now, words),
        );
      failed += group.length;
      continue;
    }
    await store.recordAttempt(
      ids,
      { at: now, ok: true, detail: "Taken by the mail server" },
      { status: "sent" },
    );
    sent += group.length;
  }
  return { sent, failed };
}
