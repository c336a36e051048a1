import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { CookieSettings } from "./sessions.ts";
import { TRUST_SECONDS } from "./sign-in-throttle.ts";

/**
 * The device cookie: a browser that signed in as an account carries its token, and its
 * sign-ins count in a lane of their own (sign-in-throttle.ts), so a stranger's guesses do not
 * lock it out. `__Host-` on https, as the session cookie is.
 */
const deviceCookieName = (session: CookieSettings) =>
  session.secure ? "__Host-vics_device" : "vics_device";

export function readDeviceCookie(
  c: Context,
  session: CookieSettings,
): string | undefined {
  return getCookie(c, deviceCookieName(session));
}

export function setDeviceCookie(
  c: Context,
  session: CookieSettings,
  token: string,
): void {
  setCookie(c, deviceCookieName(session), token, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: session.secure,
    maxAge: TRUST_SECONDS,
  });
}
