// Signed-in users and sessions for msw handlers, built and checked with the shared contract.
import {
  AUTH_PATHS,
  CLIENT_HEADER,
  SessionSchema,
  type Role,
  type SessionAnswer,
  type SessionUser,
  type SignInMethods,
} from "@vics/shared";
import { http } from "msw";
import { json } from "./api-handlers.ts";
import { problemFixture } from "./fixtures.ts";
import { server } from "./server.ts";

import { SIGNED_IN_USER } from "./signed-in-user.ts";

export { SIGNED_IN_USER };

export function userFixture(overrides: Partial<SessionUser> = {}): SessionUser {
  return { ...SIGNED_IN_USER, ...overrides };
}

export function userWithRole(role: Role): SessionUser {
  return userFixture({
    id: `user-${role}`,
    email: `${role}@example.org`,
    name: `${role.charAt(0).toUpperCase()}${role.slice(1)} User`,
    role,
  });
}

export function sessionFixture(
  user: SessionUser = SIGNED_IN_USER,
): SessionAnswer {
  return SessionSchema.parse({
    user,
    expiresAt: "2026-11-24T18:00:00.000Z",
  });
}

/** Answers GET session with `answer` (null: 401 SIGN_IN_REQUIRED); returns how often it was asked. */
export function serveSession(answer: () => SessionAnswer | null): {
  asked: () => number;
} {
  let asked = 0;
  server.use(
    http.get(AUTH_PATHS.session, () => {
      asked += 1;
      const session = answer();
      return session
        ? json(session)
        : json(problemFixture("SIGN_IN_REQUIRED", 401), 401);
    }),
  );
  return { asked: () => asked };
}

/** GET methods: a password form, and the provider's button when `oidc` is given. */
export function serveSignInMethods(
  methods: SignInMethods = { local: true, oidc: null },
): void {
  server.use(http.get(AUTH_PATHS.methods, () => json(methods)));
}

export interface SentRequest {
  body: unknown;
  contentType: string | null;
  client: string | null;
}

/**
 * Answers POSTs to `path` with `reply` (its body's JSON given, undefined when there is none);
 * returns what was sent, in order.
 */
export function servePost(
  path: string,
  reply: (body: unknown, count: number) => Response | Promise<Response>,
): SentRequest[] {
  const sent: SentRequest[] = [];
  server.use(
    http.post(path, async ({ request }) => {
      const text = await request.text();
      const body: unknown = text === "" ? undefined : JSON.parse(text);
      sent.push({
        body,
        contentType: request.headers.get("Content-Type"),
        client: request.headers.get(CLIENT_HEADER),
      });
      return reply(body, sent.length);
    }),
  );
  return sent;
}

/** POST sign-in: `user`'s session for any email and password, unless `reply` says otherwise. */
export function serveSignIn(
  reply: (body: unknown) => Response = () => json(sessionFixture()),
): SentRequest[] {
  return servePost(AUTH_PATHS.signIn, reply);
}
