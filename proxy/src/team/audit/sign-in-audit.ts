import type { Context } from "hono";
import { addressKey } from "@vics/server-kit/address-key";
import { z } from "zod";
import type { AppEnv } from "../http/app-env.ts";
import { clientAddress } from "../http/client-address.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { countAttempt, recordAudit } from "./audit-log.ts";

/** What the audit keeps of a typed email that is not one: never the attacker's own text. */
export const NOT_AN_EMAIL = "(not an email address)";

const EmailSchema = z.email().max(254);

/** A typed email as the audit keeps it: in lower case when it is one, else NOT_AN_EMAIL. */
export function auditedEmail(typed: string): string {
  const email = typed.trim().toLowerCase();
  return EmailSchema.safeParse(email).success ? email : NOT_AN_EMAIL;
}

/**
 * The audit of a refused sign-in. A refusal before any password is checked (throttled, or too
 * many in flight) is counted in one event per address and window, without a lookup or a row of
 * its own: a flood leaves a bounded log. Any other (a wrong password, an unknown email, a
 * disabled account) is an event of its own, naming the account, or the email when there is none
 * (searchable by it).
 */
export async function auditFailedSignIn(
  store: ProxyStore,
  c: Context<AppEnv>,
  now: number,
  typedEmail: string,
  reason: string,
): Promise<unknown> {
  if (reason === "throttled" || reason === "busy")
    return countAttempt(store, c, now, {
      action: "sign-in.failed",
      outcome: reason,
      user: null,
      // An IPv6 /64 is one subscriber: its addresses are one, as the throttle counts them.
      by: addressKey(clientAddress(c) ?? "unknown"),
    });
  const email = auditedEmail(typedEmail);
  const known =
    email === NOT_AN_EMAIL ? undefined : await store.findUserByEmail(email);
  return recordAudit(store, c, now, {
    action: "sign-in.failed",
    outcome: reason,
    user: known ? { id: known.id, email: known.email } : { id: null, email },
  });
}
