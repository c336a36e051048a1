import { AUTH_PATHS, PROXY_PREFIX } from "@vics/shared";
import type { Hono } from "hono";
import type { Logger } from "@vics/server-kit/logger";
import type { LimitStore } from "@vics/server-kit/rate-limiter";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { registerAuthRoutes, type AuthDeps } from "./auth-routes.ts";
import type { OidcProvider } from "./oidc-discovery.ts";
import { registerOidcRoutes } from "./oidc-routes.ts";
import {
  auditRefusals,
  loadSession,
  requireRole,
} from "./session-middleware.ts";
import {
  DEFAULT_SESSION_TIMES,
  Sessions,
  sessionCookie,
  type SessionTimes,
} from "./sessions.ts";
import {
  DEFAULT_THROTTLE,
  SignInThrottle,
  type ThrottleSettings,
} from "./sign-in-throttle.ts";

/** How staff sign in, and for how long (docs/decisions/033-staff-sessions-and-links.md). */
export interface StaffAccessSettings {
  sessionTimes: SessionTimes;
  /** Whether local passwords sign in (LOCAL_SIGN_IN): never turned on because OIDC is down. */
  localSignIn: boolean;
  /** The identity provider, when OIDC is configured: reached in the background (index.ts). */
  oidc?: OidcProvider;
  throttle: ThrottleSettings;
  /**
   * Where one-time links open: PUBLIC_ORIGIN, else the loopback address the proxy listens on
   * (known once it listens, so it may be asked for later).
   */
  linkOrigin: string | (() => string);
}

export const DEFAULT_STAFF_ACCESS: Omit<StaffAccessSettings, "linkOrigin"> = {
  sessionTimes: DEFAULT_SESSION_TIMES,
  localSignIn: true,
  throttle: DEFAULT_THROTTLE,
};

/** The /api routes a signed-out browser may use: how to sign in, and nothing else. */
const OPEN_PATHS: ReadonlySet<string> = new Set([
  AUTH_PATHS.methods,
  AUTH_PATHS.signIn,
  AUTH_PATHS.signOut,
  AUTH_PATHS.useSignInLink,
  AUTH_PATHS.setPassword,
  AUTH_PATHS.oidcStart,
  AUTH_PATHS.oidcCallback,
]);

/** Browser navigations, not the web app's fetches: no custom header, and the provider's redirect is cross-site. */
export const NAVIGATION_PATHS: ReadonlySet<string> = new Set([
  AUTH_PATHS.oidcStart,
  AUTH_PATHS.oidcCallback,
]);

const BODY_PREFIXES = [`${PROXY_PREFIX}/auth/`, `${PROXY_PREFIX}/admin/`];

/** The sign-in and admin posts carry a small JSON body (http/json-body.ts limits it). */
export function staffAccessTakesBody(c: AppContext): boolean {
  return (
    (c.req.method === "POST" || c.req.method === "PATCH") &&
    BODY_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))
  );
}

/**
 * Sessions and sign-in on `app`, and the rule that every other /api route needs a signed-in
 * user: a signed-out browser gets 401 and no data. A forwarded operation's own role (the bulk
 * checks' fleet) is its declaration's (forwarded-operations.ts). The routes behind that rule
 * (users, the audit log, ...) are mounted by app.ts, after this.
 */
export function registerStaffAccess(
  app: Hono<AppEnv>,
  options: {
    settings: StaffAccessSettings;
    store: ProxyStore;
    now: () => number;
    publicOrigin?: string;
    /** Where the sign-in throttle counts (proxy-deps.ts). */
    limitStore: LimitStore;
    /** For the throttle's warn line: one a minute per address refused. */
    logger?: Logger;
    /** Told of each sign-in try the throttle refuses (the metrics). */
    onSignInThrottled?: () => void;
  },
): void {
  const { settings, store, now } = options;
  const sessions = new Sessions(store, now, settings.sessionTimes);
  const cookie = sessionCookie(options.publicOrigin);
  app.use(loadSession(sessions, cookie));
  app.use(auditRefusals(store, now));

  const signedIn = requireRole("staff");
  // Not async: it only picks which to run, and one more promise per request buys nothing.
  app.use(`${PROXY_PREFIX}/*`, (c, next) =>
    OPEN_PATHS.has(c.req.path) ? next() : signedIn(c, next),
  );
  const oidc = settings.oidc;
  const { linkOrigin } = settings;
  const origin = () =>
    typeof linkOrigin === "function" ? linkOrigin() : linkOrigin;
  const deps: AuthDeps = {
    store,
    sessions,
    throttle: new SignInThrottle(settings.throttle, options.limitStore, {
      logger: options.logger,
      onThrottled: options.onSignInThrottled,
    }),
    cookie,
    now,
    localSignIn: settings.localSignIn,
    oidcLabel: oidc?.label ?? null,
    oidcAvailable: () => oidc?.current() !== undefined,
    providerSignOut: oidc
      ? (idToken) =>
          oidc
            .current()
            ?.endSessionUrl(idToken, new URL("/sign-in", origin()).href)
      : undefined,
  };
  registerAuthRoutes(app, deps);
  if (oidc) registerOidcRoutes(app, deps, oidc);
}
