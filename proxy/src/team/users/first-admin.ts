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

/**
 * What the terminal shows with the first admin's link: what to do with it, and next the step the
 * account page offers (a password, or the organisation sign-in when passwords are off).
 */
export function firstAdminBanner(
  link: { url: string; email: string },
  options: { localSignIn: boolean },
): string {
  const next = options.localSignIn
    ? "set a password on your account page"
    : "link your organisation sign-in on your account page";
  return [
    "",
    `  Sign in to VICS as the first admin (${link.email}) with this link; it works once, within 24 hours:`,
    `  ${link.url}`,
    `  Then ${next} (your name, at the top of every page), and invite your team from Users.`,
    "",
    "",
  ].join("\n");
}
