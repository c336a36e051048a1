import { randomBytes } from "node:crypto";
import type { LinkPurpose, ProxyStore, User } from "../store/proxy-store.ts";
import { sessionIdHash } from "./sessions.ts";

const HOUR = 3_600_000;

/** How long each kind of link can be used: an invitation over a long weekend, the rest soon. */
export const LINK_LIFETIMES: Record<LinkPurpose, number> = {
  invite: 72 * HOUR,
  reset: 24 * HOUR,
  "sign-in": 24 * HOUR,
};

/** Where each link opens in the web app. The token is in the fragment: never sent in a request line, a log or a Referer. */
const LINK_PATHS: Record<LinkPurpose, string> = {
  invite: "/account/set-password",
  reset: "/account/set-password",
  "sign-in": "/sign-in/link",
};

/**
 * A new one-time link for `user`, replacing their unused links of the same kind. The store
 * keeps only the token's SHA-256.
 */
export async function createOneTimeLink(
  store: ProxyStore,
  options: { user: User; purpose: LinkPurpose; origin: string; now: number },
): Promise<{ url: string; expiresAt: number }> {
  const { user, purpose, origin, now } = options;
  const token = randomBytes(32).toString("base64url");
  const expiresAt = now + LINK_LIFETIMES[purpose];
  await store.deleteUserLinks(user.id, purpose);
  await store.createLink({
    tokenHash: sessionIdHash(token),
    purpose,
    userId: user.id,
    expiresAt,
  });
  const url = new URL(LINK_PATHS[purpose], origin);
  url.hash = `token=${token}`;
  return { url: url.href, expiresAt };
}

/**
 * The link's user when the token is one of `purposes`, unused and in time; it is then used.
 * The purpose is part of the claim, so a link opened at the wrong endpoint is not spent.
 */
export async function useOneTimeLink(
  store: ProxyStore,
  token: string,
  purposes: readonly LinkPurpose[],
  now: number,
): Promise<{ user: User; purpose: LinkPurpose } | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const link = await store.useLink(sessionIdHash(token), now, purposes);
  if (!link) return undefined;
  const user = await store.findUserById(link.userId);
  if (!user || user.disabledAt !== null) return undefined;
  return { user, purpose: link.purpose };
}
