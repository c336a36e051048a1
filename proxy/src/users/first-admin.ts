import { createOneTimeLink } from "../auth/one-time-links.ts";
import type { ProxyStore, User } from "../store/proxy-store.ts";

/** Who `npm start` makes the first admin, when the store has none (FIRST_ADMIN_EMAIL). */
export const DEFAULT_FIRST_ADMIN_EMAIL = "admin@localhost";

const canSignIn = (user: User) =>
  user.disabledAt === null &&
  (user.passwordHash !== null || user.oidcSubject !== null);

/**
 * On loopback, as `npm start` runs it: a one-time sign-in link (24 hours) for the first admin,
 * made on the first start, and on every start until that admin has a password or an identity
 * provider's account. Undefined once someone can sign in as an admin: then no link is made.
 */
export async function firstAdminSignInLink(
  store: ProxyStore,
  options: { email: string; origin: string; now: number },
): Promise<{ url: string; email: string; created: boolean } | undefined> {
  const admins = (await store.listUsers()).filter(
    (user) => user.role === "admin" && user.disabledAt === null,
  );
  if (admins.some(canSignIn)) return undefined;
  let admin = admins[0];
  const created = admin === undefined;
  if (!admin) {
    admin = await store.createUser(
      { email: options.email, name: "First admin", role: "admin" },
      new Date(options.now),
    );
    await store.appendAudit({
      at: options.now,
      userId: null,
      userEmail: null,
      action: "user.create",
      registrations: [],
      outcome: "ok",
      requestId: null,
      clientAddress: null,
      detail: { by: "npm start", email: admin.email, role: "admin" },
    });
  }
  const { url } = await createOneTimeLink(store, {
    user: admin,
    purpose: "sign-in",
    origin: options.origin,
    now: options.now,
  });
  return { url, email: admin.email, created };
}
