import {
  AUTH_PATHS,
  InviteRequestSchema,
  UserChangeSchema,
  type AdminUser,
} from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Context, Hono } from "hono";
import { requireRole } from "../auth/session-middleware.ts";
import type { AppEnv } from "../http/app-env.ts";
import { clientAddress } from "../http/client-address.ts";
import { formBody, readJsonBody } from "../../gateway/http/json-body.ts";
import type { ProxyStore, User } from "../store/proxy-store.ts";
import {
  disableUser,
  enableUser,
  inviteUser,
  sendReset,
  setRole,
  UserAdminError,
  type AdminContext,
} from "./user-admin.ts";

export const adminUser = (user: User): AdminUser => ({
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  state: user.disabledAt
    ? "disabled"
    : user.passwordHash || user.oidcSubject
      ? "active"
      : "invited",
  signsInWith: [
    ...(user.passwordHash ? (["password"] as const) : []),
    ...(user.oidcSubject ? (["oidc"] as const) : []),
  ],
  createdAt: user.createdAt,
  linkAllowedUntil:
    user.oidcLinkAllowedUntil === null
      ? null
      : new Date(user.oidcLinkAllowedUntil).toISOString(),
});

export interface UserRouteDeps {
  store: ProxyStore;
  now: () => number;
  /** Where links open: PUBLIC_ORIGIN, else the loopback address the proxy listens on. */
  linkOrigin: string | (() => string);
}

/** /api/admin/users: the admin page's user management; admins only. */
export function registerUserRoutes(
  app: Hono<AppEnv>,
  deps: UserRouteDeps,
): void {
  const context = (c: Context<AppEnv>): AdminContext => {
    const user = c.get("user")!;
    return {
      store: deps.store,
      actor: {
        userId: user.id,
        email: user.email,
        clientAddress: clientAddress(c),
        requestId: c.get("requestId"),
      },
      origin:
        typeof deps.linkOrigin === "function"
          ? deps.linkOrigin()
          : deps.linkOrigin,
      now: deps.now,
    };
  };
  // Refusals such as "the only active admin" are the admin's to act on: a 400 in their words.
  const refusal = (error: unknown): never => {
    if (error instanceof UserAdminError)
      throw new ProblemError(400, "MALFORMED_REQUEST", error.message);
    throw error;
  };
  const byId = async (id: string) => {
    const user = await deps.store.findUserById(id);
    if (!user)
      throw new ProblemError(404, "NOT_FOUND", "There is no such user.");
    return user;
  };
  const linkAnswer = (made: {
    user: User;
    link: string;
    expiresAt: number;
  }) => ({
    user: adminUser(made.user),
    link: made.link,
    expiresAt: new Date(made.expiresAt).toISOString(),
  });

  app.use(`${AUTH_PATHS.users}/*`, requireRole("admin"));
  app.use(AUTH_PATHS.users, requireRole("admin"));

  app.get(AUTH_PATHS.users, async (c) =>
    c.json({ users: (await deps.store.listUsers()).map(adminUser) }),
  );

  app.post(AUTH_PATHS.users, formBody, async (c) => {
    const input = await readJsonBody(c, InviteRequestSchema);
    const made = await inviteUser(context(c), input).catch(refusal);
    return c.json(linkAnswer(made), 201);
  });

  app.patch(`${AUTH_PATHS.users}/:id`, formBody, async (c) => {
    const change = await readJsonBody(c, UserChangeSchema);
    const user = await byId(c.req.param("id"));
    const admin = context(c);
    let changed = user;
    try {
      if (change.role !== undefined)
        changed = await setRole(admin, user.email, change.role);
      if (change.disabled === true)
        changed = await disableUser(admin, user.email);
      if (change.disabled === false)
        changed = await enableUser(admin, user.email);
    } catch (error) {
      refusal(error);
    }
    return c.json({ user: adminUser(changed) });
  });

  app.post(`${AUTH_PATHS.users}/:id/reset`, formBody, async (c) => {
    const user = await byId(c.req.param("id"));
    const made = await sendReset(context(c), user.email).catch(refusal);
    return c.json(linkAnswer(made));
  });
}
