// The one-click unsubscribe link of an alert email (RFC 8058): it names the address, the
// fleets whose alerts that email held and when it was sent, signed with a key of the team's
// store (made once, kept in the watch settings), so a link cannot be forged or edited to
// unsubscribe someone else. It works for UNSUBSCRIBE_LINK_DAYS, and after that only while
// its email is the newest the address was sent: a link copied or leaked long ago stops, the
// one a person is most likely to click does not. A link from before links were dated counts
// as sent when the store was upgraded to date them, so the links already in mailboxes then
// (the newest digest's above all) kept working.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { WatchStore } from "../store/watch-store.ts";

const KEY_SETTING = "unsubscribe key";

/** How long a link works when a newer email has been sent to its address since. */
export const UNSUBSCRIBE_LINK_DAYS = 60;
const DAY = 86_400_000;

const TokenSchema = z.object({
  email: z.string(),
  fleets: z.array(z.string()).min(1),
  // When its email was sent (ms); absent from links made before they carried it.
  sentAt: z.number().int().nonnegative().optional(),
});
export type Unsubscribe = z.infer<typeof TokenSchema>;

/** Each store's key, read once per process. */
const keys = new WeakMap<WatchStore, Promise<Buffer>>();

/** The store's signing key, made on first use; processes racing to make it agree on one. */
export function unsubscribeKey(store: WatchStore): Promise<Buffer> {
  let key = keys.get(store);
  if (!key) {
    key = store
      .watchSettingOnce(KEY_SETTING, randomBytes(32).toString("hex"))
      .then((hex) => Buffer.from(hex, "hex"));
    // A failed read is tried again next time, not kept.
    key.catch(() => keys.delete(store));
    keys.set(store, key);
  }
  return key;
}

const mac = (key: Buffer, payload: string) =>
  createHmac("sha256", key).update(payload).digest();

export function unsubscribeToken(key: Buffer, what: Unsubscribe): string {
  const payload = Buffer.from(JSON.stringify(what)).toString("base64url");
  return `${payload}.${mac(key, payload).toString("base64url")}`;
}

/** What a token unsubscribes; undefined when it was not signed with `key` or is malformed. */
export function readUnsubscribeToken(
  key: Buffer,
  token: string,
): Unsubscribe | undefined {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(key, payload);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return undefined;
  try {
    const parsed = TokenSchema.safeParse(
      JSON.parse(Buffer.from(payload, "base64url").toString()),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True while the link works: within its days, or from the newest email its address was sent.
 * An undated link counts as sent when the store began to date them.
 */
export async function unsubscribeInTime(
  store: DeliveryStore,
  what: Unsubscribe,
  now: number,
): Promise<boolean> {
  const sentAt = what.sentAt ?? (await store.unsubscribeLinksDatedFrom());
  if (now < sentAt + UNSUBSCRIBE_LINK_DAYS * DAY) return true;
  const last = await store.lastEmailSentAt(what.email);
  return last !== null && sentAt >= last;
}
