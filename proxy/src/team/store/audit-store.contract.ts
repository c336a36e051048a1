import { describe, expect, it } from "vitest";
import type { NewAuditEvent, ProxyStore } from "./proxy-store.ts";

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
