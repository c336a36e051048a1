import { describe, expect, it } from "vitest";
import { AUTH_PATHS, type AdminUser } from "@vics/shared";
import { http } from "msw";
import { json } from "../../../test/api-handlers.ts";
import { server } from "../../../test/server.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { usersQueryOptions } from "./users-api.ts";

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
