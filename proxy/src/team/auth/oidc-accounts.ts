import type { ProxyStore, User } from "../store/proxy-store.ts";

export type OidcRefusal =
  | "failed"
  | "email-not-verified"
  | "no-account"
  | "disabled"
  | "linked-elsewhere"
  /** The account is in use: its owner links it, signed in, or an admin allows it. */
  | "link-needed"
  /** An owner's link: the identity's verified email is not the account's. */
  | "email-differs"
  /** An owner's link: the account is linked to another identity already (unlink it first). */
  | "already-linked";

export class OidcRefusedError extends Error {
  readonly reason: OidcRefusal;
  constructor(reason: OidcRefusal, message: string) {
    super(message);
    this.name = "OidcRefusedError";
    this.reason = reason;
  }
}

/** A refused link by a signed-in owner: the browser goes back to the account page. */
export class OidcLinkRefusedError extends OidcRefusedError {}

/** What the provider said of the person: the identity is the pair issuer and subject. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string;
}

/** Who made a link: an invitation's first sign-in, an admin's leave, or the signed-in owner. */
export type LinkedBy = "invitation" | "admin" | "owner";

/**
 * Who the identity signs in as: the account linked to it, or one linked now by its verified
 * email, or a new one for an allowed domain. An account is linked by email alone only while it
 * has never been used (no password, never signed in) or while an admin allows it (issue 33):
 * else the first provider identity to assert an admin's email would take the admin's account.
 */
export async function userForIdentity(
  store: ProxyStore,
  identity: OidcIdentity,
  allowedDomains: readonly string[],
  now: number,
): Promise<{ user: User; created: boolean; linked: LinkedBy | null }> {
  const { issuer, subject, email, emailVerified, name } = identity;
  const known = await store.findUserByOidc(issuer, subject);
  if (known) {
    if (known.disabledAt) throw disabled();
    return { user: known, created: false, linked: null };
  }
  if (!email || !emailVerified)
    throw new OidcRefusedError(
      "email-not-verified",
      "Your identity provider did not confirm your email address, so VICS cannot tell who you are. Ask your IT team, or an admin of VICS for an invitation.",
    );
  const existing = await store.findUserByEmail(email);
  if (existing) {
    if (existing.disabledAt) throw disabled();
    if (existing.oidcSubject !== null)
      throw new OidcRefusedError(
        "linked-elsewhere",
        `The VICS account for ${email} is linked to another sign-in. Ask an admin of VICS.`,
      );
    const unused =
      existing.passwordHash === null && existing.signedInAt === null;
    const allowed = (existing.oidcLinkAllowedUntil ?? 0) > now;
    if (!unused && !allowed)
      throw new OidcRefusedError(
        "link-needed",
        `The VICS account for ${email} is already in use. Sign in as you do now and link your organisation sign-in on your account page, or ask an admin of VICS.`,
      );
    const user = await store.updateUser(existing.id, {
      oidc: { issuer, subject },
      ...(allowed && { oidcLinkAllowedUntil: null }),
      ...(existing.name === "" && name && { name }),
    });
    return {
      user: user!,
      created: false,
      linked: unused ? "invitation" : "admin",
    };
  }
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (!allowedDomains.includes(domain))
    throw new OidcRefusedError(
      "no-account",
      `There is no VICS account for ${email}. Ask an admin of VICS to invite you.`,
    );
  const user = await store.createUser(
    { email, name, role: "staff", oidc: { issuer, subject } },
    new Date(now),
  );
  return { user, created: true, linked: null };
}

/**
 * The signed-in owner's own link: the session proves the account, and the provider an identity
 * whose verified email is the account's own. A session alone is not enough: someone at the
 * owner's unattended desk could otherwise link their own identity and keep a way in after a
 * sign-out or a password reset. An identity linked to another account, and a second link over
 * the account's own, are refused.
 */
export async function linkToOwner(
  store: ProxyStore,
  owner: User,
  identity: OidcIdentity,
): Promise<{ user: User; previous: string | null }> {
  const { issuer, subject } = identity;
  const known = await store.findUserByOidc(issuer, subject);
  if (known && known.id !== owner.id)
    throw new OidcLinkRefusedError(
      "linked-elsewhere",
      "That organisation sign-in is linked to another VICS account. Ask an admin of VICS.",
    );
  if (
    !identity.emailVerified ||
    identity.email?.trim().toLowerCase() !== owner.email.toLowerCase()
  )
    throw new OidcLinkRefusedError(
      "email-differs",
      `That organisation sign-in is not for ${owner.email}. Sign in to your organisation as yourself, then link again.`,
    );
  if (
    owner.oidcSubject !== null &&
    (owner.oidcIssuer !== issuer || owner.oidcSubject !== subject)
  )
    throw new OidcLinkRefusedError(
      "already-linked",
      "Your account is linked to another organisation sign-in already. Unlink it first.",
    );
  const user = await store.updateUser(owner.id, {
    oidc: { issuer, subject },
    oidcLinkAllowedUntil: null,
  });
  return { user: user!, previous: owner.oidcSubject };
}

const disabled = () =>
  new OidcRefusedError(
    "disabled",
    "Your VICS account has been disabled. Ask an admin of VICS to enable it.",
  );
