import { AUTH_PATHS, CLIENT_HEADER, paths } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

// Through the whole proxy app, as mounted: the refusals, reads and request ids of points 12
// and 16 of issue 33 reach the audit log.
describe("the audit of access, through the proxy", () => {
  it("a 403 for want of a role is counted per user; a read and a download of the log are events", async () => {
    const { app, store, signIn, anonymous } = createTestProxy({
      fetch: fakeUpstream().fetch,
      role: "admin",
    });
    const fleetCookie = await signIn("fleet");
    const asFleet = (path: string) =>
      anonymous.request(path, {
        headers: { [CLIENT_HEADER]: "web", Cookie: fleetCookie },
      });
    for (let i = 0; i < 25; i++)
      expect((await asFleet(AUTH_PATHS.users)).status).toBe(403);
    expect((await asFleet(AUTH_PATHS.auditCsv)).status).toBe(403);

    expect((await app.request(`${AUTH_PATHS.audit}?limit=5`)).status).toBe(200);
    expect((await app.request(AUTH_PATHS.auditCsv)).status).toBe(200);

    const events = await store.searchAudit({ limit: 20 });
    expect(
      events.map((event) => [
        event.action,
        event.userEmail?.replace(/\d+/, ""),
        event.count,
      ]),
    ).toEqual([
      ["audit.export", "admin@example.org", undefined],
      ["audit.read", "admin@example.org", 1],
      ["access.refused", "fleet@example.org", 26],
    ]);
    expect(events[2]!.outcome).toBe("needs admin");
  });

  it("keeps a client's X-Request-Id as the correlation id, never as the request id", async () => {
    const { app, store } = createTestProxy({ fetch: fakeUpstream().fetch });
    const response = await app.request(`/api${paths.insurance("AB12CDE")}`, {
      headers: { "X-Request-Id": "chosen-by-client" },
    });
    expect(response.status).toBe(200);
    const [check] = await store.searchAudit({ checksOnly: true, limit: 1 });
    expect(check).toMatchObject({
      correlationId: "chosen-by-client",
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(check!.requestId).not.toBe("chosen-by-client");
  });
});
