import { AUTH_PATHS, isSameOriginPath } from "@vics/shared";
import type { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { addressKey } from "@vics/server-kit/address-key";
import { countAttempt, recordAudit } from "../audit/audit-log.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/app-env.ts";
import { startSession, type AuthDeps } from "./start-session.ts";
import {
  LOGIN_TTL_MS,
  OidcLinkRefusedError,
  OidcRefusedError,
} from "./oidc.ts";
import { ACCOUNT_PAGE, registerOidcLinkRoutes } from "./oidc-link-routes.ts";
import type { OidcProvider } from "./oidc-discovery.ts";

/**
 * The sign-in under way, sealed (oidc-login-cookie.ts): it ties the provider's answer to the
 * browser that asked. HttpOnly, for the callback's path only.
 */
const LOGIN_COOKIE = "vics_oidc";

/** Until the provider has answered discovery: the sign-in page says sign-in is unavailable. */
const UNAVAILABLE = "/sign-in?oidc=unavailable";

/**
 * /api/auth/oidc/start and /callback: browser navigations, not fetches. A refusal goes back to
 * the sign-in page with its reason (`?oidc=no-account`), which the page says in words.
 */
export function registerOidcRoutes(
  app: Hono<AppEnv>,
  deps: AuthDeps,
  provider: OidcProvider,
): void {
  const cookieOptions = {
    path: AUTH_PATHS.oidcCallback,
    httpOnly: true,
    secure: deps.cookie.secure,
    sameSite: "Lax" as const,
  };

  app.get(AUTH_PATHS.oidcStart, async (c) => {
    const oidc = provider.current();
    if (!oidc) return c.redirect(UNAVAILABLE, 302);
    const asked = c.req.query("returnTo") ?? "/";
    const returnTo = isSameOriginPath(asked) ? asked : "/";
    const { url, cookie } = await oidc.start(returnTo, deps.now());
    setCookie(c, LOGIN_COOKIE, cookie, {
      ...cookieOptions,
      maxAge: LOGIN_TTL_MS / 1000,
    });
    return c.redirect(url.href, 302);
  });

  app.get(AUTH_PATHS.oidcCallback, async (c) => {
    const pending = getCookie(c, LOGIN_COOKIE);
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    const search = new URL(c.req.url).search;
    const oidc = provider.current();
    if (!oidc) return c.redirect(UNAVAILABLE, 302);
    try {
      const done = await oidc.finish(
        search,
        pending,
        deps.now(),
        c.get("user"),
      );
      if (done.kind === "link") {
        await recordAudit(deps.store, c, deps.now(), {
          action: "user.oidc-link",
          outcome: "ok",
          detail: {
            by: "owner",
            issuer: done.user.oidcIssuer,
            subject: done.user.oidcSubject,
            previous: done.previous,
          },
        });
        return c.redirect(`${ACCOUNT_PAGE}?oidc-link=linked`, 302);
      }
      if (done.created)
        await recordAudit(deps.store, c, deps.now(), {
          action: "user.create",
          outcome: "ok",
          user: done.user,
          detail: { by: "allowed domain", role: done.user.role },
        });
      if (done.linked)
        await recordAudit(deps.store, c, deps.now(), {
          action: "user.oidc-link",
          outcome: "ok",
          user: done.user,
          detail: {
            by: done.linked,
            issuer: done.user.oidcIssuer,
            subject: done.user.oidcSubject,
          },
        });
      await startSession(deps, c, done.user, "oidc", done.idToken);
      return c.redirect(done.returnTo, 302);
    } catch (error) {
      if (!(error instanceof OidcRefusedError)) throw error;
      if (error instanceof OidcLinkRefusedError) {
        await recordAudit(deps.store, c, deps.now(), {
          action: "user.oidc-link",
          outcome: error.reason,
          detail: { by: "owner" },
        });
        return c.redirect(`${ACCOUNT_PAGE}?oidc-link=${error.reason}`, 302);
      }
      // Anyone can call the callback, signed out and with no provider: counted per address and
      // window in one event, so a flood of them leaves a bounded log.
      await countAttempt(deps.store, c, deps.now(), {
        action: "sign-in.failed",
        outcome: error.reason,
        user: null,
        detail: { method: "oidc" },
        by: addressKey(clientAddress(c) ?? "unknown"),
      });
      return c.redirect(`/sign-in?oidc=${error.reason}`, 302);
    }
  });

  registerOidcLinkRoutes(app, deps, provider, {
    name: LOGIN_COOKIE,
    options: cookieOptions,
  });
}
