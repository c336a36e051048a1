import {
  DuplicateEmailError,
  ROLES,
  type AuditAction,
  type ProxyStore,
  type Role,
  type User,
} from "../store/proxy-store.ts";
import { createOneTimeLink } from "../auth/one-time-links.ts";

/** A refusal an admin can act on, in words; the shell prints it, the web app shows it. */
export class UserAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UserAdminError";
  }
}

/** Who did it, for the audit log: a signed-in admin, or a shell (`scripts/users`). */
export interface Actor {
  userId: string | null;
  email: string;
  clientAddress: string | null;
  requestId: string | null;
}

export interface AdminContext {
  store: ProxyStore;
  actor: Actor;
  /** Where links open: PUBLIC_ORIGIN, or the loopback address the proxy listens on. */
  origin: string;
  now: () => number;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$/;

export function parseRole(value: string | undefined): Role {
  if (ROLES.includes(value as Role)) return value as Role;
  throw new UserAdminError(`The role must be one of ${ROLES.join(", ")}.`);
}

async function audit(
  context: AdminContext,
  action: AuditAction,
  user: User,
  detail: Record<string, string> = {},
): Promise<void> {
  await context.store.appendAudit({
    at: context.now(),
    userId: context.actor.userId,
    userEmail: context.actor.email,
    action,
    registrations: [],
    outcome: "ok",
    requestId: context.actor.requestId,
    clientAddress: context.actor.clientAddress,
    detail: { user: user.email, ...detail },
  });
}

export async function findUserOrFail(
  store: ProxyStore,
  email: string,
): Promise<User> {
  const user = await store.findUserByEmail(email);
  if (!user)
    throw new UserAdminError(
      `There is no user with the email ${email.trim()}.`,
    );
  return user;
}

/** Invites a user: the account exists at once, with no password, and a 72-hour link sets one. */
export async function inviteUser(
  context: AdminContext,
  input: { email: string; name?: string; role: Role },
): Promise<{ user: User; link: string; expiresAt: number }> {
  const email = input.email.trim();
  if (!EMAIL.test(email))
    throw new UserAdminError(`"${email}" is not an email address.`);
  let user: User;
  try {
    user = await context.store.createUser(
      { email, name: input.name ?? "", role: input.role },
      new Date(context.now()),
    );
  } catch (error) {
    if (error instanceof DuplicateEmailError)
      throw new UserAdminError(
        `A user with the email ${email} already exists. Send them a password reset instead.`,
      );
    throw error;
  }
  const { url, expiresAt } = await createOneTimeLink(context.store, {
    user,
    purpose: "invite",
    origin: context.origin,
    now: context.now(),
  });
  await audit(context, "user.invite", user, { role: user.role });
  return { user, link: url, expiresAt };
}

/** The last active admin cannot be demoted or disabled: nobody could then manage users. */
async function keepAnAdmin(store: ProxyStore, user: User): Promise<void> {
  if (
    user.role === "admin" &&
    user.disabledAt === null &&
    (await store.countActiveAdmins()) <= 1
  )
    throw new UserAdminError(
      `${user.email} is the only active admin. Make someone else an admin first.`,
    );
}

export async function setRole(
  context: AdminContext,
  email: string,
  role: Role,
): Promise<User> {
  const user = await findUserOrFail(context.store, email);
  if (user.role === role) return user;
  if (role !== "admin") await keepAnAdmin(context.store, user);
  const changed = (await context.store.updateUser(user.id, { role }))!;
  await audit(context, "user.role", changed, { from: user.role, to: role });
  return changed;
}

/** Disables a user: every session of theirs ends at once, and they cannot sign in. */
export async function disableUser(
  context: AdminContext,
  email: string,
): Promise<User> {
  const user = await findUserOrFail(context.store, email);
  if (user.disabledAt !== null) return user;
  await keepAnAdmin(context.store, user);
  const changed = (await context.store.updateUser(user.id, {
    disabledAt: new Date(context.now()).toISOString(),
  }))!;
  await context.store.deleteUserSessions(user.id);
  await audit(context, "user.disable", changed);
  return changed;
}

export async function enableUser(
  context: AdminContext,
  email: string,
): Promise<User> {
  const user = await findUserOrFail(context.store, email);
  if (user.disabledAt === null) return user;
  const changed = (await context.store.updateUser(user.id, {
    disabledAt: null,
  }))!;
  await audit(context, "user.enable", changed);
  return changed;
}

/** A password reset link (24 h); the current password keeps working until the new one is set. */
export async function sendReset(
  context: AdminContext,
  email: string,
): Promise<{ user: User; link: string; expiresAt: number }> {
  const user = await findUserOrFail(context.store, email);
  if (user.disabledAt !== null)
    throw new UserAdminError(`${user.email} is disabled. Enable them first.`);
  const { url, expiresAt } = await createOneTimeLink(context.store, {
    user,
    purpose: "reset",
    origin: context.origin,
    now: context.now(),
  });
  await audit(context, "user.reset", user);
  return { user, link: url, expiresAt };
}
