import { hasRole, type Role } from "@vics/shared";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { Context } from "hono";
import { countAttempt } from "../audit/audit-log.ts";
import type { AppEnv } from "../http/app-env.ts";
import type { AuditStore } from "../store/proxy-store.ts";
import { AUTH_PROBLEMS } from "./auth-problems.ts";
import type { CookieSettings, Sessions } from "./sessions.ts";

/** Reads the session cookie and sets `user` and `session` when it names a live session. */
export function loadSession(sessions: Sessions, cookie: CookieSettings) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = getCookie(c, cookie.name);
    const active = await sessions.read(id);
    if (active) {
      c.set("user", active.user);
      c.set("session", active.session);
      c.set("sessionId", id);
    }
    // An ended or unknown session's cookie is left as it is: clearing it here could race a
    // sign-in in flight in the same browser (a one-time link's page asks who is signed in and
    // signs in at once) and end the new session as it begins. The store knows only hashes, so
    // the old id is worth nothing; the next sign-in replaces it and sign-out clears it.
    await next();
  });
}

/**
 * Lets through only a signed-in user with `role` or a role above it. Not async: it waits for
 * nothing, and its throw reaches Hono's error handler all the same.
 */
export function requireRole(role: Role) {
  return createMiddleware<AppEnv>((c, next) => {
    const user = c.get("user");
    if (!user) throw AUTH_PROBLEMS.signInRequired();
    if (!hasRole(user.role, role)) {
      const refusal = AUTH_PROBLEMS.roleRequired(user.role, role);
      neededRoles.set(refusal, role);
      throw refusal;
    }
    return next();
  });
}

/** The role each refusal of requireRole asked for, for auditRefusals. */
const neededRoles = new WeakMap<Error, Role>();

/**
 * Audits each refusal of requireRole (403) once the error handler has answered it: counted in
 * one event per user, role needed and window (audit-log.ts), so someone probing the routes of
 * a role they lack is seen, and a loop of such requests cannot fill the log.
 */
export function auditRefusals(store: AuditStore, now: () => number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const needed = c.error ? neededRoles.get(c.error) : undefined;
    const user = c.get("user");
    if (!needed || !user) return;
    await countAttempt(store, c, now(), {
      action: "access.refused",
      outcome: `needs ${needed}`,
      by: user.id,
      detail: { method: c.req.method, path: c.req.path.slice(0, 200) },
    });
  });
}

export function setSessionCookie(
  c: Context,
  cookie: CookieSettings,
  id: string,
  maxAgeSeconds: number,
): void {
  // The name carries __Host- on https (sessions.ts): Secure, path "/" and no Domain go with it.
  setCookie(c, cookie.name, id, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: cookie.secure,
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context, cookie: CookieSettings): void {
  deleteCookie(c, cookie.name, {
    path: "/",
    secure: cookie.secure,
  });
}
