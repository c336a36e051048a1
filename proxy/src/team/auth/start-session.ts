import type { SessionAnswer } from "@vics/shared";
import type { Context } from "hono";
import {
  countAttempt,
  recordAudit,
  type AuditFields,
} from "../audit/audit-log.ts";
import type { AppEnv } from "../http/app-env.ts";
import { clientAddress } from "../http/client-address.ts";
import type { ProxyStore, User } from "../store/proxy-store.ts";
import { AUTH_PROBLEMS } from "./auth-problems.ts";
import { setSessionCookie } from "./session-middleware.ts";
import type { CookieSettings, Sessions } from "./sessions.ts";
import type { Attempt, SignInThrottle } from "./sign-in-throttle.ts";
import { setDeviceCookie } from "./sign-in-throttle-cookie.ts";

export interface AuthDeps {
  store: ProxyStore;
  sessions: Sessions;
  throttle: SignInThrottle;
  cookie: CookieSettings;
  now: () => number;
  /** Whether local passwords may be used to sign in. */
  localSignIn: boolean;
  /** The OIDC provider's button words, when OIDC is on. */
  oidcLabel: string | null;
  /** Whether the provider has answered yet (oidc-discovery.ts); unset: it has. */
  oidcAvailable?: () => boolean;
  /** The provider's sign-out page for a session it opened (RP-initiated logout), if any. */
  providerSignOut?: (idToken: string | null) => string | undefined;
}

export const sessionUser = (user: User) => ({
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  hasPassword: user.passwordHash !== null,
  hasOidcLink: user.oidcSubject !== null,
});

/** Starts a session for `user`: a new id every time, the cookie set, the event recorded. */
export async function startSession(
  deps: AuthDeps,
  c: Context<AppEnv>,
  user: User,
  how: string,
  idToken: string | null = null,
): Promise<SessionAnswer> {
  // A session the browser already had ends: its id is never carried into the new one.
  const previous = c.get("sessionId");
  if (previous) await deps.sessions.end(previous);
  const id = await deps.sessions.start(user, idToken);
  setSessionCookie(
    c,
    deps.cookie,
    id,
    Math.floor(deps.sessions.times.absoluteMs / 1000),
  );
  // This browser and address are the account's own now: a stranger's guesses never lock them.
  const address = clientAddress(c) ?? "unknown";
  setDeviceCookie(
    c,
    deps.cookie,
    await deps.throttle.trust(user.email, address),
  );
  await recordAudit(deps.store, c, deps.now(), {
    action: "sign-in",
    outcome: "ok",
    user,
    detail: { method: how },
  });
  return {
    user: sessionUser(user),
    expiresAt: new Date(
      deps.now() + deps.sessions.times.absoluteMs,
    ).toISOString(),
  };
}

/**
 * A slot and a try for `user`'s password work (a change's check, a first password's hash): the
 * attempt to release and, once it went through, mark succeeded. Past the throttle or with no
 * slot free, the try is counted (in one event a window: a loop leaves a bounded log) and the
 * 429 or 503 thrown.
 */
export async function beginPasswordWork(
  deps: AuthDeps,
  c: Context<AppEnv>,
  user: User,
  detail: NonNullable<AuditFields["detail"]>,
): Promise<Attempt> {
  const verdict = await deps.throttle.beginPasswordChange(
    user.id,
    clientAddress(c) ?? "unknown",
  );
  if (verdict.ok) return verdict.attempt;
  await countAttempt(deps.store, c, deps.now(), {
    action: "user.password",
    outcome: verdict.reason,
    detail,
    by: user.id,
  });
  throw verdict.reason === "busy"
    ? AUTH_PROBLEMS.busy(verdict.retryAfterSeconds)
    : AUTH_PROBLEMS.passwordChangeThrottled(verdict.retryAfterSeconds);
}
