import {
  AUTH_PATHS,
  FirstPasswordRequestSchema,
  type SessionAnswer,
} from "@vics/shared";
import type { Hono } from "hono";
import { countAttempt, recordAudit } from "../audit/audit-log.ts";
import type { AppEnv } from "../http/app-env.ts";
import { clientAddress } from "../http/client-address.ts";
import { formBody, readJsonBody } from "../http/json-body.ts";
import type { User } from "../store/proxy-store.ts";
import { AUTH_PROBLEMS } from "./auth-problems.ts";
import { startSession, type AuthDeps } from "./auth-routes.ts";
import { hashPassword, passwordProblem } from "./passwords.ts";
import { requireRole } from "./session-middleware.ts";

/** Why `user` may not set a first password here; undefined when it may. */
function refusalFor(user: User) {
  if (user.passwordHash !== null)
    return {
      outcome: "has a password",
      problem: AUTH_PROBLEMS.passwordAlreadySet(),
    };
  // The organisation decides who signs in with its accounts: a password of the person's own
  // choosing would outlast the organisation's leave (decision 053). An admin's reset still can.
  if (user.oidcSubject !== null)
    return {
      outcome: "organisation sign-in",
      problem: AUTH_PROBLEMS.organisationAccount(),
    };
  return undefined;
}

/**
 * POST /api/auth/first-password: a signed-in account with neither a password nor an
 * organisation sign-in (the first admin, someone signed in by a one-time link) sets its first
 * password, with the rules, limits and audit of a change (auth-routes.ts). An account with a
 * password is refused: it changes it at /api/auth/password, giving the current one.
 */
export function registerFirstPasswordRoute(
  app: Hono<AppEnv>,
  deps: AuthDeps,
): void {
  const { store, sessions, now } = deps;

  app.post(
    AUTH_PATHS.firstPassword,
    requireRole("staff"),
    formBody,
    async (c) => {
      if (!deps.localSignIn) throw AUTH_PROBLEMS.localSignInOff();
      const { newPassword } = await readJsonBody(c, FirstPasswordRequestSchema);
      const user = c.get("user")!;
      const refusal = refusalFor(user);
      if (refusal) {
        // Counted in one event a window: a loop of refusals leaves a bounded log.
        await countAttempt(store, c, now(), {
          action: "user.password",
          outcome: refusal.outcome,
          detail: { by: "self", first: true },
          by: user.id,
        });
        throw refusal.problem;
      }
      const problem = passwordProblem(newPassword);
      if (problem) throw AUTH_PROBLEMS.passwordRefused(problem);
      // The hash takes a slot and a try as a change's does: the same caps on work in flight.
      const verdict = await deps.throttle.beginPasswordChange(
        user.id,
        clientAddress(c) ?? "unknown",
      );
      if (!verdict.ok) {
        await countAttempt(store, c, now(), {
          action: "user.password",
          outcome: verdict.reason,
          detail: { by: "self", first: true },
          by: user.id,
        });
        throw verdict.reason === "busy"
          ? AUTH_PROBLEMS.busy(verdict.retryAfterSeconds)
          : AUTH_PROBLEMS.passwordChangeThrottled(verdict.retryAfterSeconds);
      }
      let passwordHash: string;
      try {
        passwordHash = await hashPassword(newPassword);
      } finally {
        verdict.attempt.release();
      }
      await verdict.attempt.succeeded();
      // Read again after the hash: a reset link used meanwhile set a password, which stays.
      const latest = await store.findUserById(user.id);
      if (!latest || latest.disabledAt !== null)
        throw AUTH_PROBLEMS.signInRequired();
      const late = refusalFor(latest);
      if (late) throw late.problem;
      const updated = (await store.updateUser(user.id, { passwordHash }))!;
      // As after a change: every other session ends, this browser goes on under a new one.
      await sessions.endAllOf(user.id);
      await recordAudit(store, c, now(), {
        action: "user.password",
        outcome: "ok",
        detail: { by: "self", first: true },
      });
      return c.json(
        (await startSession(
          deps,
          c,
          updated,
          "first password",
        )) satisfies SessionAnswer,
      );
    },
  );
}
