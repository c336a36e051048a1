import { AUTH_PATHS, type OidcLinkAnswer } from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Context, Hono } from "hono";
import { setCookie } from "hono/cookie";
import { recordAudit } from "../audit/audit-log.ts";
import type { AppEnv } from "../http/app-env.ts";
import type { User } from "../store/proxy-store.ts";
import { adminUser } from "../users/user-routes.ts";
import { startSession, type AuthDeps } from "./start-session.ts";
import type { OidcProvider } from "./oidc-discovery.ts";
import { LOGIN_TTL_MS } from "./oidc.ts";
import { requireRole } from "./session-middleware.ts";

/** How long an admin's leave to link an account in use by its email lasts. */
export const LINK_ALLOWED_MS = 72 * 3_600_000;

/** Where the owner's link ends: their account page, which says how it went. */
export const ACCOUNT_PAGE = "/account";

const unavailable = () =>
  new ProblemError(
    503,
    "SERVICE_UNAVAILABLE",
    "VICS cannot reach your organisation's sign-in service yet. Try again in a minute.",
    { "Retry-After": "60" },
  );

/**
 * Linking an account in use to an OIDC identity, and undoing a link (issue 33, point 7): by
 * its owner, signed in (their session proves the account, the provider the identity), or by
 * an admin, who may allow one link by email and undo any link. Each is an audit event.
 */
export function registerOidcLinkRoutes(
  app: Hono<AppEnv>,
  deps: AuthDeps,
  provider: OidcProvider,
  cookie: { name: string; options: Parameters<typeof setCookie>[3] },
): void {
  const { store, now } = deps;
  const unlinked = async (c: Context<AppEnv>, user: User, by: string) => {
    const changed = (await store.updateUser(user.id, { oidc: null }))!;
    await recordAudit(store, c, now(), {
      action: "user.oidc-unlink",
      outcome: "ok",
      detail: {
        by,
        ...(by === "admin" && { user: user.email }),
        issuer: user.oidcIssuer,
        subject: user.oidcSubject,
      },
    });
    return changed;
  };

  app.post(AUTH_PATHS.oidcLink, requireRole("staff"), async (c) => {
    const oidc = provider.current();
    if (!oidc) throw unavailable();
    const user = c.get("user")!;
    const started = await oidc.start(ACCOUNT_PAGE, now(), user.id);
    setCookie(c, cookie.name, started.cookie, {
      ...cookie.options,
      maxAge: LOGIN_TTL_MS / 1000,
    });
    return c.json({ redirectTo: started.url.href } satisfies OidcLinkAnswer);
  });

  app.delete(AUTH_PATHS.oidcLink, requireRole("staff"), async (c) => {
    const user = c.get("user")!;
    if (user.oidcSubject === null) return c.body(null, 204);
    if (onlyWayIn(user))
      throw new ProblemError(
        409,
        "CONFLICT",
        "Your organisation sign-in is your only way into VICS, so it stays linked. Ask an admin of VICS to change how you sign in.",
      );
    await unlinked(c, user, "self");
    // Sessions the identity opened end; this browser stays signed in, on a new session.
    await deps.sessions.endAllOf(user.id);
    await startSession(deps, c, (await store.findUserById(user.id))!, "unlink");
    return c.body(null, 204);
  });

  const target = async (c: Context<AppEnv>) => {
    const user = await store.findUserById(c.req.param("id") ?? "");
    if (!user)
      throw new ProblemError(404, "NOT_FOUND", "There is no such user.");
    return user;
  };
  const adminPath = `${AUTH_PATHS.users}/:id/oidc-link`;
  /** Whether a linked user could not sign in at all without the link. */
  const onlyWayIn = (user: User) =>
    user.oidcSubject !== null &&
    (!deps.localSignIn || user.passwordHash === null);

  app.post(adminPath, requireRole("admin"), async (c) => {
    const user = await target(c);
    const until = now() + LINK_ALLOWED_MS;
    const changed = (await store.updateUser(user.id, {
      oidcLinkAllowedUntil: until,
    }))!;
    await recordAudit(store, c, now(), {
      action: "user.oidc-allow",
      outcome: "ok",
      detail: { user: user.email, until: new Date(until).toISOString() },
    });
    return c.json({ user: adminUser(changed) });
  });

  app.delete(adminPath, requireRole("admin"), async (c) => {
    const user = await target(c);
    // Another admin may undo it (the user gets in again by a reset link); not one's own.
    if (user.id === c.get("user")!.id && onlyWayIn(user))
      throw new ProblemError(
        409,
        "CONFLICT",
        "Your organisation sign-in is your only way into VICS, so it stays linked. Set a password on your account page first, or ask another admin.",
      );
    let changed = user;
    if (user.oidcSubject !== null) {
      changed = await unlinked(c, user, "admin");
      // Whoever the identity signed in is signed out; an admin undoing their own link stays
      // signed in in this browser, on a new session, as an owner does.
      await deps.sessions.endAllOf(user.id);
      if (user.id === c.get("user")!.id)
        await startSession(deps, c, changed, "unlink");
    }
    if (changed.oidcLinkAllowedUntil !== null)
      changed = (await store.updateUser(user.id, {
        oidcLinkAllowedUntil: null,
      }))!;
    return c.json({ user: adminUser(changed) });
  });
}
