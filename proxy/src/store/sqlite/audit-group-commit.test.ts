import { describe, expect, it } from "vitest";
import { auditEvent } from "../proxy-store.contract.ts";
import { openSqliteProxyStore } from "./sqlite-proxy-store.ts";

const open = () =>
  openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });

describe("audit events written together (group commit)", () => {
  it("events appended at once are each committed, in order, before any append resolves", async () => {
    const store = open();
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
    const store = open();
    const results = await Promise.allSettled([
      store.appendAudit(auditEvent({ outcome: "fine" })),
      // Text where the STRICT table takes an integer: the insert throws inside the batch.
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
