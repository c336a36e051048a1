import { hasRole, type Role } from "@vics/shared";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env.ts";
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
    } else if (id !== undefined) {
      // An ended or unknown session: the browser forgets it.
      clearSessionCookie(c, cookie);
    }
    await next();
  });
}

/** Lets through only a signed-in user with `role` or a role above it. */
export function requireRole(role: Role) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get("user");
    if (!user) throw AUTH_PROBLEMS.signInRequired();
    if (!hasRole(user.role, role))
      throw AUTH_PROBLEMS.roleRequired(user.role, role);
    await next();
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
