import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../store/sqlite/sqlite-store.ts";
import type { Store } from "../store/store.ts";
import {
  authenticateApiKey,
  generateApiKey,
  hashApiKey,
  issueApiKey,
} from "./api-key.ts";

const stores: Store[] = [];
function open(): Store {
  const store = openSqliteStore({
    path: ":memory:",
    seed: { fleetSize: 0, seed: 1, today: "2026-03-10" },
  });
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const NOW = new Date("2026-03-10T10:00:00.000Z");

describe("generateApiKey", () => {
  it("carries at least 128 random bits, and never repeats", () => {
    const keys = Array.from({ length: 2000 }, generateApiKey);
    for (const key of keys.slice(0, 50)) {
      const random = key.replace(/^vics_/, "");
      expect(random).toMatch(/^[A-Za-z0-9_-]+$/);
      // base64url: 6 bits a character.
      expect(random.length * 6).toBeGreaterThanOrEqual(128);
    }
    expect(new Set(keys).size).toBe(keys.length);
    // Every base64url character turns up somewhere: the bytes are not from a narrow source.
    expect(new Set(keys.join("").replaceAll("vics_", "")).size).toBe(64);
  });
});

describe("issueApiKey", () => {
  // That nothing but the hash reaches the database is proven on the file in keys-cli.test.ts.
  it("stores the key's SHA-256 hash, by which the key is then found", async () => {
    const store = open();
    const { key, record } = await issueApiKey(store, "fleet", "ops", NOW);
    expect(hashApiKey(key)).toBe(
      createHash("sha256").update(key).digest("hex"),
    );
    expect(await store.findKeyByHash(hashApiKey(key))).toEqual(record);
    expect(record).toMatchObject({ name: "ops", plan: "fleet" });
  });
});

describe("authenticateApiKey", () => {
  it("accepts an active key, rejects a missing, unknown or revoked one", async () => {
    const store = open();
    const { key, record } = await issueApiKey(store, "trial", "ci", NOW);
    expect(await authenticateApiKey(store, key)).toEqual(record);
    expect(await authenticateApiKey(store, undefined)).toBeUndefined();
    expect(await authenticateApiKey(store, "")).toBeUndefined();
    expect(await authenticateApiKey(store, `${key}x`)).toBeUndefined();
    expect(await authenticateApiKey(store, hashApiKey(key))).toBeUndefined();
    await store.revokeKey("ci", NOW.toISOString());
    expect(await authenticateApiKey(store, key)).toBeUndefined();
  });

  it("asks the store by the key's hash every time, so a revocation applies at once", async () => {
    const store = open();
    const { key, record } = await issueApiKey(store, "trial", "again", NOW);
    const asked: string[] = [];
    const watched = {
      ...store,
      findKeyByHash: (keyHash: string) => {
        asked.push(keyHash);
        return store.findKeyByHash(keyHash);
      },
    };
    expect(await authenticateApiKey(watched, key)).toEqual(record);
    expect(await authenticateApiKey(watched, key)).toEqual(record);
    expect(await authenticateApiKey(watched, `${key}y`)).toBeUndefined();
    expect(asked).toEqual([
      hashApiKey(key),
      hashApiKey(key),
      hashApiKey(`${key}y`),
    ]);
    await store.revokeKey("again", NOW.toISOString());
    expect(await authenticateApiKey(watched, key)).toBeUndefined();
  });
});
