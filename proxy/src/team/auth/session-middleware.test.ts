import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signedInApp } from "../../testing/signed-in-app.ts";
import { auditRefusals, requireRole } from "./session-middleware.ts";

let harness: ReturnType<typeof signedInApp>;
beforeEach(() => {
  harness = signedInApp();
  harness.app.use(auditRefusals(harness.store, Date.now));
  harness.app.get("/api/admin/thing", requireRole("admin"), (c) =>
    c.text("for admins"),
  );
  harness.app.get("/api/staff-thing", requireRole("staff"), (c) =>
    c.text("for staff"),
  );
});
afterEach(() => harness.store.close());

describe("a refusal for want of a role (403)", () => {
  it("is audited, once per user and window however often it is tried, with the count", async () => {
    const staff = await harness.signedIn("staff");
    const other = await harness.signedIn("fleet");
    const get = (path: string, cookie: string) =>
      harness.app.request(path, { headers: { Cookie: cookie } });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => get("/api/admin/thing", staff.cookie)),
    );
    expect(new Set(statuses.map((response) => response.status))).toEqual(
      new Set([403]),
    );
    for (let i = 0; i < 20; i++) await get("/api/admin/thing", staff.cookie);
    await get("/api/admin/thing", other.cookie);
    // Allowed, and a signed-out 401: neither is a refusal of a role.
    expect((await get("/api/staff-thing", staff.cookie)).status).toBe(200);
    expect((await harness.app.request("/api/admin/thing")).status).toBe(401);

    const events = await harness.store.searchAudit({ limit: 100 });
    expect(
      events.map((event) => [
        event.action,
        event.userEmail,
        event.outcome,
        event.count,
      ]),
    ).toEqual([
      ["access.refused", other.user.email, "needs admin", 1],
      ["access.refused", staff.user.email, "needs admin", 50],
    ]);
    expect(events[1]!.detail).toEqual({
      method: "GET",
      path: "/api/admin/thing",
    });
  });
});
