import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useOneTimeLink } from "../auth/one-time-links.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import {
  disableUser,
  enableUser,
  inviteUser,
  sendReset,
  setRole,
  UserAdminError,
  type AdminContext,
} from "./user-admin.ts";

const NOW = Date.parse("2026-11-24T10:00:00Z");
let store: ProxyStore;
let context: AdminContext;
const tokenOf = (url: string) => new URL(url).hash.replace("#token=", "");

beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  context = {
    store,
    actor: {
      userId: null,
      email: "scripts/users (root)",
      clientAddress: null,
      requestId: null,
    },
    origin: "https://vics.example.org",
    now: () => NOW,
  };
});
afterEach(() => store.close());

describe("inviting a user", () => {
  it("creates the account with no password, a 72-hour set-password link, and an audit event", async () => {
    const { user, link, expiresAt } = await inviteUser(context, {
      email: " ann@example.org ",
      name: "Ann",
      role: "fleet",
    });
    expect(user).toMatchObject({
      email: "ann@example.org",
      role: "fleet",
      passwordHash: null,
    });
    expect(link).toMatch(
      /^https:\/\/vics\.example\.org\/account\/set-password#token=/,
    );
    expect(expiresAt).toBe(NOW + 72 * 3_600_000);
    expect(
      await useOneTimeLink(store, tokenOf(link), ["invite"], NOW),
    ).toMatchObject({ user: { id: user.id } });
    const [event] = await store.searchAudit({ limit: 5 });
    expect(event).toMatchObject({
      action: "user.invite",
      userEmail: "scripts/users (root)",
      detail: { user: "ann@example.org", role: "fleet" },
    });
  });

  it("refuses a taken email in any case, and text that is not an email", async () => {
    await inviteUser(context, { email: "ann@example.org", role: "staff" });
    await expect(
      inviteUser(context, { email: "ANN@example.org", role: "staff" }),
    ).rejects.toThrow(/already exists. Send them a password reset instead/);
    await expect(
      inviteUser(context, { email: "ann", role: "staff" }),
    ).rejects.toBeInstanceOf(UserAdminError);
  });
});

describe("managing users", () => {
  it("changes a role and records from what to what", async () => {
    await inviteUser(context, { email: "ann@example.org", role: "staff" });
    expect(await setRole(context, "ann@example.org", "admin")).toMatchObject({
      role: "admin",
    });
    const [event] = await store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({
      action: "user.role",
      detail: { from: "staff", to: "admin" },
    });
  });

  it("never leaves the team without an active admin", async () => {
    await inviteUser(context, { email: "root@example.org", role: "admin" });
    await expect(setRole(context, "root@example.org", "staff")).rejects.toThrow(
      /only active admin/,
    );
    await expect(disableUser(context, "root@example.org")).rejects.toThrow(
      /only active admin/,
    );
    await inviteUser(context, { email: "second@example.org", role: "admin" });
    expect(await disableUser(context, "root@example.org")).toMatchObject({
      disabledAt: expect.any(String),
    });
  });

  it("ends every session of a disabled user at once, and enables them again", async () => {
    const { user } = await inviteUser(context, {
      email: "ann@example.org",
      role: "staff",
    });
    await store.createSession({
      idHash: "h",
      userId: user.id,
      createdAt: NOW,
      lastSeenAt: NOW,
      expiresAt: NOW + 1e6,
      idToken: null,
    });
    await disableUser(context, "ann@example.org");
    expect(await store.findSession("h")).toBeUndefined();
    await expect(sendReset(context, "ann@example.org")).rejects.toThrow(
      /disabled. Enable them first/,
    );
    expect(await enableUser(context, "ann@example.org")).toMatchObject({
      disabledAt: null,
    });
    const actions = (await store.searchAudit({ limit: 5 })).map(
      (event) => event.action,
    );
    expect(actions).toEqual(["user.enable", "user.disable", "user.invite"]);
  });

  it("sends a 24-hour reset link, and says when there is no such user", async () => {
    await inviteUser(context, { email: "ann@example.org", role: "staff" });
    const { link, expiresAt } = await sendReset(context, "ann@example.org");
    expect(expiresAt).toBe(NOW + 24 * 3_600_000);
    expect(
      await useOneTimeLink(store, tokenOf(link), ["reset"], NOW),
    ).toMatchObject({ purpose: "reset" });
    await expect(sendReset(context, "bob@example.org")).rejects.toThrow(
      "There is no user with the email bob@example.org.",
    );
  });
});
