import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditStore, NewAuditEvent, ProxyStore } from "./proxy-store.ts";

const NOW = Date.parse("2026-11-24T10:00:00Z");

const attempt = (change: Partial<NewAuditEvent> = {}): NewAuditEvent => ({
  at: NOW,
  userId: null,
  userEmail: null,
  action: "sign-in.failed",
  registrations: [],
  outcome: "throttled",
  requestId: "own-id",
  clientAddress: "203.0.113.9",
  ...change,
});

/**
 * Aggregated audit events (a throttled flood of sign-ins, refusals), the client's correlation
 * id kept apart from the request id, and the search by an email with no account: what both
 * engines must do alike.
 */
export function auditStoreContract(store: () => ProxyStore) {
  describe("aggregated audit events", () => {
    it("counts attempts with one key as one event, however many arrive together", async () => {
      const key = "sign-in.failed|203.0.113.9|window-1";
      const flood = (from: number, count: number) =>
        Promise.all(
          Array.from({ length: count }, (_, index) =>
            store().appendAudit(
              attempt({ at: NOW + from + index, aggregate: key }),
            ),
          ),
        );
      const first = await flood(0, 250);
      await flood(250, 249);
      // A plain event and another address's attempt in the same batch as the last one.
      await Promise.all([
        store().appendAudit(attempt({ at: NOW + 600, aggregate: key })),
        store().appendAudit(
          attempt({
            clientAddress: "198.51.100.1",
            aggregate: "sign-in.failed|198.51.100.1|window-1",
          }),
        ),
        store().appendAudit(attempt({ outcome: "wrong password" })),
      ]);
      const events = await store().searchAudit({ limit: 100 });
      expect(events).toHaveLength(3);
      const flooded = events.find(
        (event) => event.clientAddress === "203.0.113.9" && event.count,
      );
      expect(flooded).toMatchObject({ at: NOW, count: 500, lastAt: NOW + 600 });
      expect(new Set(first.map((event) => event.id))).toEqual(
        new Set([flooded!.id]),
      );
      const other = events.find(
        (event) => event.clientAddress === "198.51.100.1",
      );
      expect(other).toMatchObject({ count: 1, lastAt: NOW });
      const plain = events.find((event) => event.outcome === "wrong password");
      expect(plain).toBeDefined();
      expect(plain!.count).toBeUndefined();
      expect(plain!.lastAt).toBeUndefined();
    });

    it("keeps a client's X-Request-Id apart from the proxy's own id", async () => {
      await store().appendAudit(
        attempt({ requestId: "server-made", correlationId: "client-chose" }),
      );
      await store().appendAudit(attempt({ requestId: "no-client-id" }));
      const events = await store().searchAudit({ limit: 10 });
      expect(
        events.map((event) => [event.requestId, event.correlationId]),
      ).toEqual([
        ["no-client-id", undefined],
        ["server-made", "client-chose"],
      ]);
    });

    it("finds the events of an email that has no account", async () => {
      await store().appendAudit(
        attempt({ userEmail: "nobody@example.org", outcome: "unknown email" }),
      );
      await store().appendAudit(attempt({ userEmail: "else@example.org" }));
      const found = await store().searchAudit({
        userEmail: "nobody@example.org",
        limit: 10,
      });
      expect(found.map((event) => event.outcome)).toEqual(["unknown email"]);
    });
  });
}

/** An engine's audit queries on a migrated database, and how many batches it has committed. */
export interface AuditOnEngine {
  audit: AuditStore;
  /** Transactions (or single-statement batches) of audit events committed so far. */
  commits(): number;
  close(): Promise<void>;
}

const turn = () => new Promise((next) => setImmediate(next));

/**
 * The audit append's group commit as each engine does it, counted at the engine: concurrent
 * checks' events in one transaction, each check answered only once its own is committed, a
 * failed batch refused to every caller in it (issue 36).
 */
export function auditGroupCommitContract(open: () => Promise<AuditOnEngine>) {
  describe("the audit's group commit, counted at the engine", () => {
    let engine: AuditOnEngine;
    beforeEach(async () => {
      engine = await open();
    });
    afterEach(() => engine.close());

    /** Appends, noting how many commits the engine had made when each was answered. */
    const appendAll = (events: NewAuditEvent[]) =>
      events.map((event) =>
        engine.audit
          .appendAudit(event)
          .then((stored) => ({ stored, commitsSeen: engine.commits() })),
      );

    it("commits the appends of one turn in one transaction, each answered after it, in order", async () => {
      const answered = await Promise.all(
        appendAll(
          Array.from({ length: 20 }, (_, index) =>
            attempt({ outcome: `event ${index}`, registrations: ["AB12CDE"] }),
          ),
        ),
      );
      expect(engine.commits()).toBe(1);
      expect(answered.map((answer) => answer.commitsSeen)).toEqual(
        Array(20).fill(1),
      );
      const ids = answered.map((answer) => answer.stored.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(20);
      const stored = await engine.audit.searchAudit({
        registration: "AB12CDE",
        limit: 50,
      });
      expect(stored.map((event) => event.id).reverse()).toEqual(ids);
    });

    it("commits the appends made while a batch is written together in the next one", async () => {
      const first = appendAll([1, 2, 3].map((n) => attempt({ at: NOW + n })));
      // The first batch has begun (SQLite writes it at once; PostgreSQL awaits its answer).
      await turn();
      const next = appendAll([4, 5, 6].map((n) => attempt({ at: NOW + n })));
      const answered = await Promise.all([...first, ...next]);
      expect(engine.commits()).toBe(2);
      expect(answered.map((answer) => answer.commitsSeen)).toEqual([
        1, 1, 1, 2, 2, 2,
      ]);
      const ids = answered.map((answer) => answer.stored.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    });

    it("keeps plain events in order and an aggregated one once, in the same batch", async () => {
      const key = "sign-in.failed|203.0.113.9|window-1";
      const answered = await Promise.all(
        appendAll([
          attempt({ outcome: "a" }),
          attempt({ aggregate: key }),
          attempt({ outcome: "b" }),
          attempt({ at: NOW + 5, aggregate: key }),
          attempt({ outcome: "c" }),
        ]),
      );
      expect(engine.commits()).toBe(1);
      const [a, k1, b, k2, c] = answered.map((answer) => answer.stored);
      expect(a!.id < b!.id && b!.id < c!.id).toBe(true);
      expect(k2!.id).toBe(k1!.id);
      const events = await engine.audit.searchAudit({ limit: 10 });
      expect(events.map((event) => event.outcome)).toEqual([
        "c",
        "b",
        "throttled",
        "a",
      ]);
      expect(events[2]).toMatchObject({ count: 2, lastAt: NOW + 5 });
    });

    it("refuses every caller of a failed batch, commits none of it, and writes the next batch", async () => {
      const failed = Promise.allSettled([
        engine.audit.appendAudit(attempt({ outcome: "fine" })),
        // Text where the table takes an integer: the insert fails inside the batch.
        engine.audit.appendAudit(
          attempt({ at: "yesterday" as unknown as number }),
        ),
      ]);
      await turn();
      const next = appendAll([attempt({ outcome: "after" })]);
      const results = await failed;
      expect(results.map((result) => result.status)).toEqual([
        "rejected",
        "rejected",
      ]);
      const [after] = await Promise.all(next);
      expect(after!.commitsSeen).toBe(1);
      expect(engine.commits()).toBe(1);
      expect(
        (await engine.audit.searchAudit({ limit: 10 })).map((e) => e.outcome),
      ).toEqual(["after"]);
    });
  });
}
