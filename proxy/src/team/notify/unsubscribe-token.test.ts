import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import {
  readUnsubscribeToken,
  unsubscribeKey,
  unsubscribeToken,
} from "./unsubscribe-token.ts";

describe("unsubscribe tokens", () => {
  const key = randomBytes(32);
  const what = {
    email: "ops@fleet.example",
    fleets: ["f-1", "f-2"],
    sentAt: Date.parse("2026-11-27T10:00:00Z"),
  };

  it("read back what they were made for", () => {
    expect(readUnsubscribeToken(key, unsubscribeToken(key, what))).toEqual(
      what,
    );
  });

  it("from before they carried their email's time, read with no time (the store's upgrade stands in)", () => {
    const payload = Buffer.from(
      JSON.stringify({ email: what.email, fleets: what.fleets }),
    ).toString("base64url");
    const signature = createHmac("sha256", key)
      .update(payload)
      .digest("base64url");
    expect(readUnsubscribeToken(key, `${payload}.${signature}`)).toEqual({
      email: what.email,
      fleets: what.fleets,
    });
  });

  it("are refused when edited, cut short or signed with another key", () => {
    const token = unsubscribeToken(key, what);
    const [payload, signature] = token.split(".") as [string, string];
    const other = Buffer.from(
      JSON.stringify({ ...what, email: "boss@fleet.example" }),
    ).toString("base64url");
    expect(readUnsubscribeToken(key, `${other}.${signature}`)).toBeUndefined();
    expect(readUnsubscribeToken(key, payload)).toBeUndefined();
    expect(readUnsubscribeToken(key, token.slice(0, -2))).toBeUndefined();
    expect(readUnsubscribeToken(randomBytes(32), token)).toBeUndefined();
    expect(readUnsubscribeToken(key, `${token}.x`)).toBeUndefined();
    expect(readUnsubscribeToken(key, "")).toBeUndefined();
  });

  it("are signed with a key made once and kept in the store, the same for every process", async () => {
    const path = join(
      mkdtempSync(join(tmpdir(), "vics-unsubscribe-")),
      "proxy.db",
    );
    const open = () => openSqliteProxyStore({ path, auditRetentionDays: 30 });
    const [one, two] = [open(), open()];
    const [first, second] = await Promise.all([
      unsubscribeKey(one),
      unsubscribeKey(two),
    ]);
    expect(first).toHaveLength(32);
    expect(second).toEqual(first);
    // Kept in the store: a process started later reads the same key.
    const three = open();
    expect(await unsubscribeKey(three)).toEqual(first);
    await Promise.all([one.close(), two.close(), three.close()]);
  });
});
