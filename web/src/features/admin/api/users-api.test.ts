import { describe, expect, it } from "vitest";
import { AUTH_PATHS, type AdminUser } from "@vics/shared";
import { HttpResponse, http } from "msw";
import { json } from "../../../testing/api-handlers.ts";
import {
  isInvalidated,
  renderMutation,
} from "../../../testing/render-mutation.tsx";
import { server } from "../../../testing/server.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import {
  useChangeUserMutation,
  useInviteUserMutation,
  useUnlinkOidcMutation,
  usersQueryOptions,
} from "./users-api.ts";

const admin = (overrides: Partial<AdminUser>): AdminUser => ({
  id: "u-first",
  email: "admin@localhost",
  name: "First admin",
  role: "admin",
  state: "invited",
  signsInWith: [],
  createdAt: "2026-11-01T09:00:00.000Z",
  linkAllowedUntil: null,
  ...overrides,
});

describe("the users list", () => {
  it("is asked again when the page opens again, with the app's own defaults: a password set meanwhile shows", async () => {
    let answer = admin({});
    server.use(http.get(AUTH_PATHS.users, () => json({ users: [answer] })));
    const queryClient = createQueryClient();
    const before = await queryClient.fetchQuery(usersQueryOptions());
    expect(before.users[0]!.state).toBe("invited");
    answer = admin({ state: "active", signsInWith: ["password"] });
    const after = await queryClient.fetchQuery(usersQueryOptions());
    expect(after.users[0]).toMatchObject({
      state: "active",
      signsInWith: ["password"],
    });
  });
});

describe("the users' writes", () => {
  const first = admin({});
  const listKey = usersQueryOptions().queryKey;

  it("a change puts the user as the proxy now has them in the cached list, without asking again", async () => {
    const changed = admin({ role: "fleet" });
    server.use(
      http.patch(`${AUTH_PATHS.users}/${first.id}`, () =>
        json({ user: changed }),
      ),
    );
    const { queryClient, result } = renderMutation(() =>
      useChangeUserMutation(),
    );
    queryClient.setQueryData(listKey, { users: [first] });

    await result.current.mutateAsync({
      id: first.id,
      change: { role: "fleet" },
    });

    expect(queryClient.getQueryData(listKey)).toEqual({ users: [changed] });
    expect(isInvalidated(queryClient, listKey)).toBe(false);
  });

  it("an invitation puts the new user first in the cached list", async () => {
    const invited = admin({ id: "u-new", email: "new@localhost" });
    server.use(
      http.post(AUTH_PATHS.users, () =>
        json({
          user: invited,
          link: "http://localhost/set-password#t",
          expiresAt: "2026-12-02T09:00:00.000Z",
        }),
      ),
    );
    const { queryClient, result } = renderMutation(() =>
      useInviteUserMutation(),
    );
    queryClient.setQueryData(listKey, { users: [first] });

    await result.current.mutateAsync({
      email: invited.email,
      name: "",
      role: "admin",
    });

    expect(queryClient.getQueryData(listKey)).toEqual({
      users: [invited, first],
    });
  });

  it("unlinking an organisation sign-in marks the list stale, as the answer has no user", async () => {
    server.use(
      http.delete(
        `${AUTH_PATHS.users}/${first.id}/oidc-link`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    const { queryClient, result } = renderMutation(() =>
      useUnlinkOidcMutation(),
    );
    queryClient.setQueryData(listKey, { users: [first] });

    await result.current.mutateAsync(first.id);

    expect(isInvalidated(queryClient, listKey)).toBe(true);
  });
});
