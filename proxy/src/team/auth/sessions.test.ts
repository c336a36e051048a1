import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProxyStore, User } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { Sessions, sessionCookie, sessionIdHash } from "./sessions.ts";

const HOUR = 3_600_000;
let store: ProxyStore;
let now: number;
let sessions: Sessions;
let ann: User;

beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  now = Date.parse("2026-11-24T08:00:00Z");
  sessions = new Sessions(store, () => now, {
    idleMs: 2 * HOUR,
    absoluteMs: 10 * HOUR,
  });
  ann = await store.createUser(
    { email: "ann@example.org", name: "Ann", role: "staff" },
    new Date(now),
  );
});
afterEach(() => store.close());

describe("sessions", () => {
  it("store only the SHA-256 of a 256-bit id, new at every sign-in", async () => {
    const first = await sessions.start(ann);
    const second = await sessions.start(ann);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first, "base64url")).toHaveLength(32);
    expect(first).not.toBe(second);
    expect(await store.findSession(first)).toBeUndefined();
    expect(await store.findSession(sessionIdHash(first))).toMatchObject({
      userId: ann.id,
    });
    expect((await sessions.read(first))?.user.email).toBe("ann@example.org");
  });

  it("hash an id as SHA-256 in hex, so the sessions and links already stored still match", () => {
    // FIPS 180-2's test vector: the hash's spelling must never change under stored rows.
    expect(sessionIdHash("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("mark the user's first sign-in, and keep it (an account in use is never linked by email)", async () => {
    await sessions.start(ann);
    expect((await store.findUserById(ann.id))?.signedInAt).toBe(
      "2026-11-24T08:00:00.000Z",
    );
    now += HOUR;
    await sessions.start((await store.findUserById(ann.id))!);
    expect((await store.findUserById(ann.id))?.signedInAt).toBe(
      "2026-11-24T08:00:00.000Z",
    );
  });

  it("end after the idle time, and stay alive while used", async () => {
    const id = await sessions.start(ann);
    now += 1.5 * HOUR;
    expect(await sessions.read(id)).toBeDefined();
    now += 1.5 * HOUR;
    expect(await sessions.read(id)).toBeDefined();
    now += 2 * HOUR;
    expect(await sessions.read(id)).toBeUndefined();
    expect(await store.findSession(sessionIdHash(id))).toBeUndefined();
  });

  it("end at the absolute time however busy", async () => {
    const id = await sessions.start(ann);
    for (let hour = 1; hour < 10; hour++) {
      now += HOUR;
      expect(await sessions.read(id)).toBeDefined();
    }
    now += HOUR;
    expect(await sessions.read(id)).toBeUndefined();
  });

  it("end at once for a disabled user, and on sign-out", async () => {
    const kept = await sessions.start(ann);
    const other = await sessions.start(ann);
    await sessions.end(other);
    expect(await sessions.read(other)).toBeUndefined();
    expect(await sessions.read(kept)).toBeDefined();
    await store.updateUser(ann.id, { disabledAt: new Date(now).toISOString() });
    expect(await sessions.read(kept)).toBeUndefined();
  });

  it("end everywhere at once", async () => {
    const ids = [await sessions.start(ann), await sessions.start(ann)];
    expect(await sessions.endAllOf(ann.id)).toBe(2);
    for (const id of ids) expect(await sessions.read(id)).toBeUndefined();
  });

  it("ignore ids that are not ids", async () => {
    for (const id of [
      undefined,
      "",
      "x",
      "a".repeat(44),
      "a".repeat(42) + "!",
    ]) {
      expect(await sessions.read(id)).toBeUndefined();
    }
  });
});

describe("the session cookie", () => {
  it("is __Host- and Secure on https, plain on http loopback", () => {
    expect(sessionCookie("https://vics.example.org")).toEqual({
      name: "__Host-vics_session",
      secure: true,
    });
    expect(sessionCookie("http://127.0.0.1:3000")).toEqual({
      name: "vics_session",
      secure: false,
    });
    expect(sessionCookie(undefined)).toEqual({
      name: "vics_session",
      secure: false,
    });
  });
});
