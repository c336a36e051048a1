import { afterEach, describe, expect, it, vi } from "vitest";
import { hashApiKey, issueApiKey } from "../keys/api-key.ts";
import { openSqliteStore } from "./sqlite/sqlite-store.ts";
import { withCachedKeys } from "./cached-keys.ts";
import type { Store } from "./store.ts";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

function stores() {
  const database = openSqliteStore({
    path: ":memory:",
    seed: { fleetSize: 5, seed: 1, today: "2026-03-10" },
  });
  opened.push(database);
  let clock = 1_000_000;
  const cached = withCachedKeys(database, { ttlMs: 2000, now: () => clock });
  const lookups = vi.spyOn(database, "findKeyByHash");
  return {
    database,
    cached,
    lookups,
    advance: (ms: number) => (clock += ms),
  };
}

describe("withCachedKeys", () => {
  it("asks the database once per key within the time to live, then again", async () => {
    const { database, cached, lookups, advance } = stores();
    const { key } = await issueApiKey(database, "trial", "a", new Date());
    for (let i = 0; i < 5; i++)
      expect(await cached.findKeyByHash(hashApiKey(key))).toMatchObject({
        name: "a",
      });
    expect(lookups).toHaveBeenCalledTimes(1);
    advance(2000);
    await cached.findKeyByHash(hashApiKey(key));
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it("sees a revocation from another process once the entry expires", async () => {
    const { database, cached, advance } = stores();
    const { key } = await issueApiKey(database, "trial", "b", new Date());
    await cached.findKeyByHash(hashApiKey(key));
    await database.revokeKey("b", new Date().toISOString()); // not through the cache
    expect((await cached.findKeyByHash(hashApiKey(key)))?.revokedAt).toBeNull();
    advance(2001);
    expect(
      (await cached.findKeyByHash(hashApiKey(key)))?.revokedAt,
    ).not.toBeNull();
  });

  it("never remembers an unknown key, so a new key works on its first request", async () => {
    const { database, cached, lookups } = stores();
    const { key } = await issueApiKey(database, "trial", "d", new Date());
    const unknown = hashApiKey(`${key}x`);
    expect(await cached.findKeyByHash(unknown)).toBeUndefined();
    expect(await cached.findKeyByHash(unknown)).toBeUndefined();
    expect(lookups).toHaveBeenCalledTimes(2);
  });
});
