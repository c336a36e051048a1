import { describe, expect, it } from "vitest";
import type { PgPool } from "@vics/server-kit/postgres";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { auditEvent } from "../proxy-store.contract.ts";
import { openPostgresProxyStore } from "./postgres-proxy-store.ts";

const postgres = sharedPostgres();

describe("the PostgreSQL store's statements run on every request", () => {
  it("are prepared once per connection: the session read and its touch, the audit batch, the audit search", async () => {
    const url = await postgres().createDatabase("prepared_statements");
    let pool: PgPool | undefined;
    // One connection, so what it has prepared is what the store ran.
    const store = await openPostgresProxyStore({
      url,
      auditRetentionDays: 30,
      applicationName: "vics-proxy-test",
      maxConnections: 1,
      watchPool: (watched) => (pool = watched),
    });
    try {
      const now = Date.now();
      const ann = await store.createUser(
        { email: "ann@example.org", name: "Ann", role: "fleet" },
        new Date(now),
      );
      await store.createSession({
        idHash: "a",
        userId: ann.id,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + 60_000,
        idToken: null,
      });
      for (let request = 0; request < 3; request++) {
        expect((await store.findSessionWithUser("a"))?.user?.id).toBe(ann.id);
        await store.touchSession("a", now + request);
        await store.appendAudit(auditEvent({ at: now }));
        await store.searchAudit({ registration: "AB12CDE", limit: 5 });
      }
      const { rows } = await pool!.query<{ name: string; statement: string }>(
        "SELECT name, statement FROM pg_prepared_statements ORDER BY statement",
      );
      const named = (pattern: RegExp) =>
        rows.filter((row) => pattern.test(row.statement));
      expect(named(/from "sessions" as "s" left join "users"/i)).toHaveLength(
        1,
      );
      expect(named(/^update "sessions" set "last_seen_at"/i)).toHaveLength(1);
      expect(named(/INSERT INTO audit_events/)).toHaveLength(1);
      expect(named(/from "audit_registrations" as "r"/i)).toHaveLength(1);
      // The store's other statements, each run once here, are not kept.
      expect(named(/insert into "users"/i)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
