import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonRequest, signedInApp } from "../../testing/signed-in-app.ts";
import { registerUserRoutes } from "./user-routes.ts";

let harness: ReturnType<typeof signedInApp>;
beforeEach(() => {
  harness = signedInApp();
  registerUserRoutes(harness.app, {
    store: harness.store,
    now: Date.now,
    linkOrigin: "https://vics.example.org",
  });
});
afterEach(() => harness.store.close());

interface Answer {
  code: string;
  detail: string;
  link: string;
  user: {
    id: string;
    email: string;
    role: string;
    state: string;
    signsInWith: string[];
  };
  users: { email: string; state: string }[];
}
const json = (response: Response) => response.json() as Promise<Answer>;

describe("/api/admin/users", () => {
  it("is for admins only: staff and fleet get ROLE_REQUIRED in words, the signed-out SIGN_IN_REQUIRED", async () => {
    for (const role of ["staff", "fleet"] as const) {
      const { cookie } = await harness.signedIn(role);
      const response = await harness.app.request("/api/admin/users", {
        headers: { Cookie: cookie },
      });
      expect(response.status).toBe(403);
      const body = await json(response);
      expect(body.code).toBe("ROLE_REQUIRED");
      expect(body.detail).toMatch(
        new RegExp(
          `^Your role, ${role}, lets you make .*This needs the admin role: ask an admin\\.$`,
        ),
      );
    }
    const anonymous = await harness.app.request("/api/admin/users");
    expect((await json(anonymous)).code).toBe("SIGN_IN_REQUIRED");
  });

  it("invites, lists, changes a role, disables and resets, each audited under the admin's name", async () => {
    const { cookie, user: admin } = await harness.signedIn(
      "admin",
      "root@example.org",
    );
    const invited = await harness.app.request(
      "/api/admin/users",
      jsonRequest(
        "POST",
        { email: "ann@example.org", name: "Ann", role: "staff" },
        cookie,
      ),
    );
    expect(invited.status).toBe(201);
    const { user, link } = await json(invited);
    expect(user).toMatchObject({
      email: "ann@example.org",
      state: "invited",
      signsInWith: [],
    });
    expect(link).toMatch(
      /^https:\/\/vics\.example\.org\/account\/set-password#token=/,
    );

    const listed = await json(
      await harness.app.request("/api/admin/users", {
        headers: { Cookie: cookie },
      }),
    );
    expect(listed.users.map((u) => [u.email, u.state])).toEqual([
      ["ann@example.org", "invited"],
      ["root@example.org", "invited"],
    ]);
    const promoted = await harness.app.request(
      `/api/admin/users/${user.id}`,
      jsonRequest("PATCH", { role: "fleet" }, cookie),
    );
    expect((await json(promoted)).user.role).toBe("fleet");
    const disabled = await harness.app.request(
      `/api/admin/users/${user.id}`,
      jsonRequest("PATCH", { disabled: true }, cookie),
    );
    expect((await json(disabled)).user.state).toBe("disabled");
    const reset = await harness.app.request(
      `/api/admin/users/${user.id}/reset`,
      jsonRequest("POST", {}, cookie),
    );
    expect(reset.status).toBe(400);
    expect((await json(reset)).detail).toBe(
      "ann@example.org is disabled. Enable them first.",
    );

    const events = await harness.store.searchAudit({
      userId: admin.id,
      limit: 10,
    });
    expect(events.map((event) => event.action)).toEqual([
      "user.disable",
      "user.role",
      "user.invite",
    ]);
    expect(
      events.every((event) => event.userEmail === "root@example.org"),
    ).toBe(true);
  });

  it("refuses to leave the team without an admin, and names a user that is not there", async () => {
    const { cookie, user } = await harness.signedIn("admin");
    const demote = await harness.app.request(
      `/api/admin/users/${user.id}`,
      jsonRequest("PATCH", { role: "staff" }, cookie),
    );
    expect(demote.status).toBe(400);
    expect((await json(demote)).detail).toMatch(/only active admin/);
    const missing = await harness.app.request(
      "/api/admin/users/nope",
      jsonRequest("PATCH", { role: "staff" }, cookie),
    );
    expect(missing.status).toBe(404);
    const invalid = await harness.app.request(
      "/api/admin/users",
      jsonRequest("POST", { email: "not an email", role: "staff" }, cookie),
    );
    expect((await json(invalid)).detail).toMatch(
      /^email: Enter an email address/,
    );
  });
});
