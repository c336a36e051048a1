import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditEvent } from "./proxy-store.contract.ts";
import { openProxyStore, storePlace } from "./open-proxy-store.ts";

describe("opening the proxy's store", () => {
  it("is the SQLite file without DATABASE_URL, created and migrated on first open", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-open-proxy-store-"));
    try {
      const env = {
        databasePath: join(folder, "proxy.sqlite"),
        auditRetentionDays: 30,
      };
      const store = await openProxyStore(env, "test");
      await store.appendAudit(auditEvent({ requestId: "kept" }));
      await store.close();
      const again = await openProxyStore(env, "test");
      expect(
        (await again.searchAudit({ limit: 1 })).map((e) => e.requestId),
      ).toEqual(["kept"]);
      await again.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("names where it is for an operator, never with a password", () => {
    expect(storePlace({ databasePath: "/srv/vics/proxy.sqlite" })).toBe(
      "/srv/vics/proxy.sqlite",
    );
    expect(
      storePlace({
        databasePath: "/unused",
        databaseUrl:
          "postgres://vics_app:s3cret@db.internal:5432/vics?sslmode=require",
      }),
    ).toBe("postgres://vics_app@db.internal:5432/vics");
  });
});
