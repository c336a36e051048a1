import {
  AUTH_PATHS,
  FirstPasswordRequestSchema,
  type SessionAnswer,
} from "@vics/shared";
import type { Hono } from "hono";
import { countAttempt, recordAudit } from "../audit/audit-log.ts";
import type { AppEnv } from "../http/app-env.ts";
import { formBody, readJsonBody } from "../../gateway/http/json-body.ts";
import type { User } from "../store/proxy-store.ts";
import { AUTH_PROBLEMS } from "./auth-problems.ts";
import { hashPassword, passwordProblem } from "./passwords.ts";
import { requireRole } from "./session-middleware.ts";
import {
  beginPasswordWork,
  startSession,
  type AuthDeps,
} from "./start-session.ts";

/**
 * How long after sign-in a session may set the account's first password (decision 053). An
 * account without a password or an organisation sign-in was signed in by a one-time link, so
 * this is "within 30 minutes of using the link": a session stolen later cannot turn itself into
 * a password of the thief's choosing, and sign the owner out everywhere.
 */
export const FIRST_PASSWORD_WINDOW_MS = 30 * 60_000;

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
 * password, with the rules, limits and audit of a change (auth-routes.ts), from a session at
 * most FIRST_PASSWORD_WINDOW_MS old. An account with a password is refused: it changes it at
 * /api/auth/password, giving the current one.
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
      const session = c.get("session")!;
      const detail = { by: "self", first: true };
      // Counted in one event a window: a loop of refusals leaves a bounded log.
      const refuse = async (refusal: { outcome: string; problem: Error }) => {
        await countAttempt(store, c, now(), {
          action: "user.password",
          outcome: refusal.outcome,
          detail,
          by: user.id,
        });
        return refusal.problem;
      };
      const refusal =
        refusalFor(user) ??
        (now() - session.createdAt > FIRST_PASSWORD_WINDOW_MS
          ? {
              outcome: "session too old",
              problem: AUTH_PROBLEMS.firstPasswordTooLate(
                FIRST_PASSWORD_WINDOW_MS / 60_000,
              ),
            }
          : undefined);
      if (refusal) throw await refuse(refusal);
      const problem = passwordProblem(newPassword);
      if (problem) throw AUTH_PROBLEMS.passwordRefused(problem);
      // The hash takes a slot and a try as a change's does: the same caps on work in flight.
      const attempt = await beginPasswordWork(deps, c, user, detail);
      let passwordHash: string;
      try {
        passwordHash = await hashPassword(newPassword);
      } finally {
        attempt.release();
      }
      await attempt.succeeded();
      // Set only while the account still has no password and no organisation sign-in, in one
      // statement: a reset link used during the hash set a password, which stays.
      const updated = await store.setFirstPassword(user.id, passwordHash);
      if (!updated) {
        const latest = await store.findUserById(user.id);
        if (!latest || latest.disabledAt !== null)
          throw AUTH_PROBLEMS.signInRequired();
        // A password (a reset link used during the hash) or an organisation link came first; none
        // only in a race (disabled at the update, enabled again since): refused all the same.
        throw await refuse(
          refusalFor(latest) ?? {
            outcome: "has a password",
            problem: AUTH_PROBLEMS.passwordAlreadySet(),
          },
        );
      }
      // As after a change: every other session ends, this browser goes on under a new one.
      await sessions.endAllOf(user.id);
      await recordAudit(store, c, now(), {
        action: "user.password",
        outcome: "ok",
        detail,
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
