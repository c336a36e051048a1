import type { Role } from "@vics/shared";
import { errorHandler } from "@vics/server-kit/error-handlers";
import { silentLogger } from "@vics/server-kit/logger";
import { ownRequestId } from "@vics/server-kit/request-id";
import { Hono } from "hono";
import { loadSession } from "../team/auth/session-middleware.ts";
import { Sessions, sessionCookie } from "../team/auth/sessions.ts";
import type { AppEnv } from "../team/http/app-env.ts";
import { PROXY_PROBLEMS } from "../gateway/http/problem.ts";
import { memoryProxyStore, TEST_SESSION_TIMES } from "./index.ts";

/**
 * A bare app with sessions, for the tests of routes that need a signed-in user: register the
 * routes on `app`, then `signedIn(role)` gives the Cookie header of a new user of that role.
 */
export function signedInApp() {
  const store = memoryProxyStore();
  const sessions = new Sessions(store, Date.now, TEST_SESSION_TIMES);
  const cookie = sessionCookie(undefined);
  const app = new Hono<AppEnv>();
  app.use(ownRequestId);
  app.use(loadSession(sessions, cookie));
  app.onError(
    errorHandler({ logger: silentLogger, internal: PROXY_PROBLEMS.internal }),
  );
  let count = 0;
  async function signedIn(role: Role, email = `${role}${++count}@example.org`) {
    const user = await store.createUser(
      { email, name: `${role} ${count}`, role },
      new Date(),
    );
    return { user, cookie: `${cookie.name}=${await sessions.start(user)}` };
  }
  return { app, store, sessions, signedIn };
}

/** A JSON request with a cookie, as the web app sends it. */
export function jsonRequest(
  method: string,
  body: unknown,
  cookie: string,
): RequestInit {
  return {
    method,
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify(body),
  };
}
