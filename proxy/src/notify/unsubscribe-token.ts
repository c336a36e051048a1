// The one-click unsubscribe link of an alert email (RFC 8058): it names the address and the
// fleets whose alerts that email held, signed with a key of the team's store (made once, kept
// in the watch settings), so a link cannot be forged or edited to unsubscribe someone else.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { WatchStore } from "../store/watch-store.ts";

const KEY_SETTING = "unsubscribe key";

const TokenSchema = z.object({
  email: z.string(),
  fleets: z.array(z.string()).min(1),
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
