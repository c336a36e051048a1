import {
  AUTH_PATHS,
  ChangePasswordRequestSchema,
  SetPasswordRequestSchema,
  SignInRequestSchema,
  TokenRequestSchema,
  type SessionAnswer,
  type SignInMethods,
} from "@vics/shared";
import type { Hono } from "hono";
import { recordAudit } from "../audit/audit-log.ts";
import { auditFailedSignIn } from "../audit/sign-in-audit.ts";
import type { AppEnv } from "../http/app-env.ts";
import { clientAddress } from "../http/client-address.ts";
import { formBody, readJsonBody } from "../../gateway/http/json-body.ts";
import { AUTH_PROBLEMS } from "./auth-problems.ts";
import { registerFirstPasswordRoute } from "./first-password-route.ts";
import { signInLocally } from "./local-sign-in.ts";
import { useOneTimeLink } from "./one-time-links.ts";
import {
  hashPassword,
  passwordProblem,
  verifyNothing,
  verifyPassword,
} from "./passwords.ts";
import { clearSessionCookie, requireRole } from "./session-middleware.ts";
import { readDeviceCookie } from "./sign-in-throttle-cookie.ts";
import {
  beginPasswordWork,
  sessionUser,
  startSession,
  type AuthDeps,
} from "./start-session.ts";

export type { AuthDeps } from "./start-session.ts";

/** /api/auth/*: sign-in, sign-out, one-time links and the user's own password. */
export function registerAuthRoutes(app: Hono<AppEnv>, deps: AuthDeps): void {
  const { store, sessions, now } = deps;
  // Each post declares its body's limit, a form's, even where it reads none (json-body.ts).
  const staffForm = [requireRole("staff"), formBody] as const;

  app.get(AUTH_PATHS.methods, (c) =>
    c.json({
      local: deps.localSignIn,
      oidc:
        deps.oidcLabel === null
          ? null
          : {
              label: deps.oidcLabel,
              available: deps.oidcAvailable?.() ?? true,
            },
    } satisfies SignInMethods),
  );

  app.get(AUTH_PATHS.session, requireRole("staff"), (c) => {
    const session = c.get("session")!;
    return c.json({
      user: sessionUser(c.get("user")!),
      expiresAt: new Date(session.expiresAt).toISOString(),
    } satisfies SessionAnswer);
  });

  app.post(AUTH_PATHS.signIn, formBody, async (c) => {
    if (!deps.localSignIn) throw AUTH_PROBLEMS.localSignInOff();
    const { email, password } = await readJsonBody(c, SignInRequestSchema);
    const address = clientAddress(c) ?? "unknown";
    const result = await signInLocally(store, deps.throttle, {
      email,
      password,
      address,
      device: readDeviceCookie(c, deps.cookie),
    });
    if (!result.ok) {
      await auditFailedSignIn(store, c, now(), email, result.reason);
      if (result.reason === "throttled")
        throw AUTH_PROBLEMS.throttled(result.retryAfterSeconds);
      if (result.reason === "busy")
        throw AUTH_PROBLEMS.busy(result.retryAfterSeconds);
      if (result.reason === "disabled") throw AUTH_PROBLEMS.disabled();
      throw AUTH_PROBLEMS.wrongPassword();
    }
    return c.json(await startSession(deps, c, result.user, "password"));
  });

  app.post(AUTH_PATHS.useSignInLink, formBody, async (c) => {
    const { token } = await readJsonBody(c, TokenRequestSchema);
    const used = await useOneTimeLink(store, token, ["sign-in"], now());
    if (!used) throw AUTH_PROBLEMS.linkNotUsable();
    return c.json(await startSession(deps, c, used.user, "one-time link"));
  });

  app.post(AUTH_PATHS.setPassword, formBody, async (c) => {
    const { token, password } = await readJsonBody(c, SetPasswordRequestSchema);
    // Checked before the link is spent, so a refused password leaves the link usable.
    const problem = passwordProblem(password);
    if (problem) throw AUTH_PROBLEMS.passwordRefused(problem);
    const used = await useOneTimeLink(store, token, ["invite", "reset"], now());
    if (!used) throw AUTH_PROBLEMS.linkNotUsable();
    const user = (await store.updateUser(used.user.id, {
      passwordHash: await hashPassword(password),
    }))!;
    // A reset ends every session the old password opened.
    await sessions.endAllOf(user.id);
    await recordAudit(store, c, now(), {
      action: "user.password",
      outcome: "ok",
      user,
      detail: { by: used.purpose },
    });
    return c.json(await startSession(deps, c, user, used.purpose));
  });

  app.post(AUTH_PATHS.changePassword, ...staffForm, async (c) => {
    const { currentPassword, newPassword } = await readJsonBody(
      c,
      ChangePasswordRequestSchema,
    );
    const user = c.get("user")!;
    // Counted before the hash, as a sign-in is: a stolen session cannot guess the password.
    const attempt = await beginPasswordWork(deps, c, user, { by: "self" });
    const refused = (outcome: string) =>
      recordAudit(store, c, now(), {
        action: "user.password",
        outcome,
        detail: { by: "self" },
      });
    let right: boolean;
    try {
      right = user.passwordHash
        ? await verifyPassword(currentPassword, user.passwordHash)
        : await verifyNothing(currentPassword);
    } finally {
      attempt.release();
    }
    if (!right) {
      await refused("wrong");
      throw AUTH_PROBLEMS.passwordRefused(
        "Your current password is not right.",
      );
    }
    await attempt.succeeded();
    if (newPassword === currentPassword)
      throw AUTH_PROBLEMS.passwordRefused(
        "Your new password is the same as your current one. Choose a new one.",
      );
    const problem = passwordProblem(newPassword);
    if (problem) throw AUTH_PROBLEMS.passwordRefused(problem);
    await store.updateUser(user.id, {
      passwordHash: await hashPassword(newPassword),
    });
    await sessions.endAllOf(user.id);
    await recordAudit(store, c, now(), {
      action: "user.password",
      outcome: "ok",
      detail: { by: "self" },
    });
    // This browser stays signed in, on a new session; every other one is signed out.
    await startSession(deps, c, user, "password change");
    return c.body(null, 204);
  });

  registerFirstPasswordRoute(app, deps);

  app.post(AUTH_PATHS.signOut, formBody, async (c) => {
    const id = c.get("sessionId");
    let redirectTo = "/sign-in";
    if (id) {
      const ended = await sessions.end(id);
      await recordAudit(store, c, now(), { action: "sign-out", outcome: "ok" });
      // A session the provider opened also ends at the provider, when it offers that.
      if (ended?.idToken)
        redirectTo = deps.providerSignOut?.(ended.idToken) ?? redirectTo;
    }
    clearSessionCookie(c, deps.cookie);
    return c.json({ redirectTo });
  });

  app.post(AUTH_PATHS.signOutEverywhere, ...staffForm, async (c) => {
    const count = await sessions.endAllOf(c.get("user")!.id);
    await recordAudit(store, c, now(), {
      action: "sign-out",
      outcome: "ok",
      detail: { sessions: count, everywhere: true },
    });
    clearSessionCookie(c, deps.cookie);
    return c.body(null, 204);
  });
}
