import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type {
  NewAuditEvent,
  ProxyStore,
} from "../../proxy/src/team/store/proxy-store.ts";
import { openSqliteProxyStore } from "../../proxy/src/team/store/sqlite/sqlite-proxy-store.ts";
import { withoutSignInCosts } from "./store.ts";

let real: ProxyStore;
beforeEach(() => {
  real = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 365 });
});
afterEach(() => real.close());

const event: NewAuditEvent = {
  at: 1_000,
  userId: null,
  userEmail: null,
  action: "check.insurance",
  registrations: ["AB12CDE"],
  outcome: "200",
  requestId: null,
  clientAddress: null,
};
const NOW = new Date("2026-11-28T12:00:00Z");
const newUser = (email: string) =>
  real.createUser({ email, name: "Bench", role: "fleet" }, NOW);
const liveSession = (idHash: string, userId: string) =>
  real.createSession({
    idHash,
    userId,
    createdAt: 0,
    lastSeenAt: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
    idToken: null,
  });

describe("the bench's store without sign-in's costs", () => {
  it("reads a session and its user once, then from memory", async () => {
    const user = await newUser("a@example.org");
    await liveSession("hash", user.id);
    const store = withoutSignInCosts(real);
    expect(await store.findSession("hash")).toMatchObject({ userId: user.id });
    expect(await store.findUserById(user.id)).toMatchObject({
      disabledAt: null,
    });
    await real.deleteSession("hash");
    await real.updateUser(user.id, { disabledAt: NOW.toISOString() });
    expect(await real.findSession("hash")).toBeUndefined();
    expect(await store.findSession("hash")).toMatchObject({ userId: user.id });
    expect(await store.findSessionWithUser("hash")).toBeUndefined();
  });

  it("reads a session with its user once, then from memory", async () => {
    const user = await newUser("c@example.org");
    await liveSession("both", user.id);
    const store = withoutSignInCosts(real);
    expect(await store.findSessionWithUser("both")).toMatchObject({
      session: { userId: user.id },
      user: { id: user.id },
    });
    await real.deleteSession("both");
    expect(await store.findSessionWithUser("both")).toMatchObject({
      user: { id: user.id },
    });
  });

  it("remembers no unknown session, so one made later is found", async () => {
    const store = withoutSignInCosts(real);
    expect(await store.findSession("later")).toBeUndefined();
    const user = await newUser("b@example.org");
    await liveSession("later", user.id);
    expect(await store.findSession("later")).toMatchObject({ userId: user.id });
  });

  it("writes no audit event", async () => {
    const store = withoutSignInCosts(real);
    const appended = await store.appendAudit(event);
    expect(appended).toMatchObject(event);
    expect(await real.searchAudit({ limit: 10 })).toEqual([]);
  });
});
