import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fleetStoreContract } from "./fleet-store.contract.ts";
import { notificationsContract } from "./notifications.contract.ts";
import { deliveryStoreContract } from "./delivery-store.contract.ts";
import { watchStoreContract } from "./watch-store.contract.ts";
import { oidcLinkStoreContract } from "./oidc-link-store.contract.ts";
import { auditStoreContract } from "./audit-store.contract.ts";
import {
  DuplicateEmailError,
  type NewAuditEvent,
  type ProxyStore,
} from "./proxy-store.ts";

const DAY_MS = 86_400_000;
const NOW = Date.parse("2026-11-24T10:00:00Z");

export function auditEvent(change: Partial<NewAuditEvent> = {}): NewAuditEvent {
  return {
    at: NOW,
    userId: "u1",
    userEmail: "ann@example.org",
    action: "check.insurance",
    registrations: ["AB12CDE"],
    outcome: "200",
    requestId: "req-1",
    clientAddress: "127.0.0.1",
    ...change,
  };
}

/**
 * What every proxy store must do, whatever its engine: run by each engine's test with a
 * function that opens an empty store with 30 days of audit retention.
 */
export function proxyStoreContract(open: () => Promise<ProxyStore>) {
  let store: ProxyStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  fleetStoreContract(() => store);
  watchStoreContract(() => store);
  oidcLinkStoreContract(() => store);
  notificationsContract(() => store);
  deliveryStoreContract(() => store);
  auditStoreContract(() => store);

  describe("users", () => {
    it("finds a user by id, by email in any case, and refuses the same email twice", async () => {
      const ann = await store.createUser(
        { email: " Ann@Example.org ", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      expect(ann).toMatchObject({
        email: "Ann@Example.org",
        role: "staff",
        passwordHash: null,
        disabledAt: null,
        createdAt: "2026-11-24T10:00:00.000Z",
      });
      expect(await store.findUserById(ann.id)).toEqual(ann);
      expect(await store.findUserByEmail("ann@example.ORG")).toEqual(ann);
      await expect(
        store.createUser(
          { email: "ANN@example.org", name: "", role: "admin" },
          new Date(NOW),
        ),
      ).rejects.toBeInstanceOf(DuplicateEmailError);
      expect(await store.findUserByEmail("bob@example.org")).toBeUndefined();
    });

    it("changes only what it is given, links an OIDC identity and counts active admins", async () => {
      const ann = await store.createUser(
        {
          email: "ann@example.org",
          name: "Ann",
          role: "admin",
          passwordHash: "$argon2id$x",
        },
        new Date(NOW),
      );
      await store.createUser(
        { email: "bob@example.org", name: "Bob", role: "admin" },
        new Date(NOW),
      );
      expect(await store.countActiveAdmins()).toBe(2);
      const disabled = await store.updateUser(ann.id, {
        disabledAt: "2026-11-24T11:00:00.000Z",
      });
      expect(disabled).toMatchObject({
        name: "Ann",
        role: "admin",
        passwordHash: "$argon2id$x",
      });
      expect(await store.countActiveAdmins()).toBe(1);
      const linked = await store.updateUser(ann.id, {
        role: "fleet",
        passwordHash: null,
        disabledAt: null,
        oidc: { issuer: "https://id.example.org", subject: "s-1" },
      });
      expect(linked).toMatchObject({
        role: "fleet",
        passwordHash: null,
        disabledAt: null,
      });
      expect(
        await store.findUserByOidc("https://id.example.org", "s-1"),
      ).toEqual(linked);
      expect(
        await store.findUserByOidc("https://other.example.org", "s-1"),
      ).toBeUndefined();
      expect((await store.listUsers()).map((user) => user.email)).toEqual([
        "ann@example.org",
        "bob@example.org",
      ]);
      expect(
        await store.updateUser("no-such-id", { name: "x" }),
      ).toBeUndefined();
    });

    it("sets a first password only on an account with no password, no organisation sign-in and not disabled", async () => {
      const ann = await store.createUser(
        { email: "ann@example.org", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      const set = await store.setFirstPassword(ann.id, "$argon2id$first");
      expect(set).toMatchObject({
        id: ann.id,
        name: "Ann",
        passwordHash: "$argon2id$first",
      });
      // A second one (a reset, a first password sent twice) changes nothing.
      expect(
        await store.setFirstPassword(ann.id, "$argon2id$second"),
      ).toBeUndefined();
      expect((await store.findUserById(ann.id))?.passwordHash).toBe(
        "$argon2id$first",
      );

      const bob = await store.createUser(
        {
          email: "bob@example.org",
          name: "Bob",
          role: "staff",
          oidc: { issuer: "https://id.example.org", subject: "bob" },
        },
        new Date(NOW),
      );
      expect(
        await store.setFirstPassword(bob.id, "$argon2id$bob"),
      ).toBeUndefined();
      expect((await store.findUserById(bob.id))?.passwordHash).toBeNull();

      const cy = await store.createUser(
        { email: "cy@example.org", name: "Cy", role: "staff" },
        new Date(NOW),
      );
      await store.updateUser(cy.id, { disabledAt: "2026-11-24T11:00:00.000Z" });
      expect(
        await store.setFirstPassword(cy.id, "$argon2id$cy"),
      ).toBeUndefined();
      expect((await store.findUserById(cy.id))?.passwordHash).toBeNull();

      expect(
        await store.setFirstPassword("no-such-id", "$argon2id$x"),
      ).toBeUndefined();
    });
  });

  describe("sessions", () => {
    it("keeps a session until it is deleted, alone or with the user's others, or expires", async () => {
      const ann = await store.createUser(
        { email: "ann@example.org", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      const session = (idHash: string, change = {}) => ({
        idHash,
        userId: ann.id,
        createdAt: NOW,
        lastSeenAt: NOW,
        expiresAt: NOW + DAY_MS,
        idToken: null,
        ...change,
      });
      await store.createSession(session("a"));
      await store.createSession(session("b", { idToken: "id-token" }));
      await store.createSession(session("c", { expiresAt: NOW + 1000 }));
      await store.touchSession("a", NOW + 5000);
      await store.touchSession("a", NOW + 10);
      expect(await store.findSession("a")).toEqual(
        session("a", { lastSeenAt: NOW + 5000 }),
      );
      expect(await store.findSession("b")).toMatchObject({
        idToken: "id-token",
      });
      // c is past its end, b idle for an hour: only a, seen since, is kept.
      expect(
        await store.deleteExpiredSessions(NOW + 3_600_000, 3_600_000 - 4000),
      ).toBe(2);
      expect(await store.findSession("a")).toBeDefined();
      expect(await store.findSession("b")).toBeUndefined();
      await store.createSession(session("d"));
      expect(await store.deleteUserSessions(ann.id)).toBe(2);
      expect(await store.findSession("a")).toBeUndefined();
      await store.createSession(session("e"));
      await store.deleteSession("e");
      expect(await store.findSession("e")).toBeUndefined();
    });

    it("reads a session with its user in one call, as each signed-in request does", async () => {
      const ann = await store.createUser(
        { email: "ann@example.org", name: "Ann", role: "fleet" },
        new Date(NOW),
      );
      const session = {
        idHash: "a",
        userId: ann.id,
        createdAt: NOW,
        lastSeenAt: NOW,
        expiresAt: NOW + DAY_MS,
        idToken: "id-token",
      };
      await store.createSession(session);
      expect(await store.findSessionWithUser("a")).toEqual({
        session,
        user: ann,
      });
      const disabledAt = new Date(NOW + 1000).toISOString();
      await store.updateUser(ann.id, { disabledAt });
      expect(await store.findSessionWithUser("a")).toEqual({
        session,
        user: { ...ann, disabledAt },
      });
      expect(await store.findSessionWithUser("b")).toBeUndefined();
    });
  });

  describe("one-time links", () => {
    it("is used once, never after its end, and a new invite ends the old one", async () => {
      const ann = await store.createUser(
        { email: "ann@example.org", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      await store.createLink({
        tokenHash: "t1",
        purpose: "invite",
        userId: ann.id,
        expiresAt: NOW + 1000,
      });
      await store.createLink({
        tokenHash: "t2",
        purpose: "reset",
        userId: ann.id,
        expiresAt: NOW + 1000,
      });
      await store.createLink({
        tokenHash: "t3",
        purpose: "invite",
        userId: ann.id,
        expiresAt: NOW + 1000,
      });
      expect(await store.useLink("t1", NOW, ["invite"])).toEqual({
        tokenHash: "t1",
        purpose: "invite",
        userId: ann.id,
        expiresAt: NOW + 1000,
      });
      expect(await store.useLink("t1", NOW, ["invite"])).toBeUndefined();
      expect(await store.useLink("t2", NOW + 1000, ["reset"])).toBeUndefined();
      await store.deleteUserLinks(ann.id, "invite");
      expect(await store.useLink("t3", NOW, ["invite"])).toBeUndefined();
      expect(await store.useLink("unknown", NOW, ["invite"])).toBeUndefined();
    });

    it("is not spent by a claim for another purpose", async () => {
      const ann = await store.createUser(
        { email: "ann@example.org", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      await store.createLink({
        tokenHash: "t1",
        purpose: "sign-in",
        userId: ann.id,
        expiresAt: NOW + 1000,
      });
      expect(
        await store.useLink("t1", NOW, ["invite", "reset"]),
      ).toBeUndefined();
      expect(await store.useLink("t1", NOW, ["sign-in"])).toMatchObject({
        tokenHash: "t1",
        purpose: "sign-in",
      });
      expect(await store.useLink("t1", NOW, ["sign-in"])).toBeUndefined();
    });
  });

  describe("audit", () => {
    it("finds events by registration, user and time, newest first, a page at a time", async () => {
      for (let i = 0; i < 5; i++) {
        await store.appendAudit(
          auditEvent({
            at: NOW + i * 1000,
            userId: i % 2 === 0 ? "u1" : "u2",
            registrations:
              i === 3
                ? ["AB12CDE", "XY99ZZZ"]
                : [i < 3 ? "AB12CDE" : "CD34EFG"],
            requestId: `req-${i}`,
          }),
        );
      }
      const byPlate = await store.searchAudit({
        registration: "AB12CDE",
        limit: 10,
      });
      expect(byPlate.map((event) => event.requestId)).toEqual([
        "req-3",
        "req-2",
        "req-1",
        "req-0",
      ]);
      expect(byPlate[0]!.registrations).toEqual(["AB12CDE", "XY99ZZZ"]);
      const page1 = await store.searchAudit({ limit: 2 });
      const page2 = await store.searchAudit({
        limit: 2,
        before: page1.at(-1)!.id,
      });
      expect([...page1, ...page2].map((event) => event.requestId)).toEqual([
        "req-4",
        "req-3",
        "req-2",
        "req-1",
      ]);
      const u1Window = await store.searchAudit({
        userId: "u1",
        from: NOW + 1000,
        to: NOW + 4000,
        limit: 10,
      });
      expect(u1Window.map((event) => event.requestId)).toEqual(["req-2"]);
      await store.appendAudit(
        auditEvent({ action: "sign-in", registrations: [], requestId: "in" }),
      );
      const checks = await store.searchAudit({ checksOnly: true, limit: 2 });
      expect(checks.map((event) => event.requestId)).toEqual([
        "req-4",
        "req-3",
      ]);
    });

    // Long past it: PostgreSQL drops whole partitions, so a month at most after the period.
    it("keeps an event's detail and prunes only events past the retention period", async () => {
      await store.appendAudit(
        auditEvent({ at: NOW - 100 * DAY_MS, requestId: "old" }),
      );
      const kept = await store.appendAudit(
        auditEvent({
          at: NOW - 29 * DAY_MS,
          action: "user.role",
          registrations: [],
          detail: { from: "staff", to: "admin" },
        }),
      );
      expect(await store.pruneAudit(NOW)).toBe(1);
      expect(await store.searchAudit({ limit: 10 })).toEqual([kept]);
      expect(
        await store.searchAudit({ registration: "AB12CDE", limit: 10 }),
      ).toEqual([]);
    });
  });

  describe("audit events written together (group commit)", () => {
    it("events appended at once are each committed, in order, before any append resolves", async () => {
      const appended = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          store.appendAudit(auditEvent({ outcome: `event ${index}` })),
        ),
      );
      const ids = appended.map((event) => event.id);
      expect(new Set(ids).size).toBe(50);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      const stored = await store.searchAudit({ limit: 100 });
      expect(stored.map((event) => event.outcome).reverse()).toEqual(
        appended.map((event) => event.outcome),
      );
    });

    it("a batch that cannot be written fails every request in it, and keeps none of it", async () => {
      const results = await Promise.allSettled([
        store.appendAudit(auditEvent({ outcome: "fine" })),
        // Text where the table takes an integer: the insert fails inside the batch.
        store.appendAudit(auditEvent({ at: "yesterday" as unknown as number })),
      ]);
      expect(results.map((result) => result.status)).toEqual([
        "rejected",
        "rejected",
      ]);
      expect(await store.searchAudit({ limit: 10 })).toEqual([]);
      // The next request is a new batch, and is written.
      await store.appendAudit(auditEvent({ outcome: "after" }));
      expect(
        (await store.searchAudit({ limit: 10 })).map((e) => e.outcome),
      ).toEqual(["after"]);
    });
  });

  it("answers a ping", async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
}
