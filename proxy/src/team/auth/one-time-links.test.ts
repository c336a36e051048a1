import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProxyStore, User } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { createOneTimeLink, useOneTimeLink } from "./one-time-links.ts";

let store: ProxyStore;
let ann: User;
const NOW = Date.parse("2026-11-24T10:00:00Z");
const ORIGIN = "http://127.0.0.1:3000";
const tokenOf = (url: string) => new URL(url).hash.replace("#token=", "");

beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  ann = await store.createUser(
    { email: "ann@example.org", name: "Ann", role: "staff" },
    new Date(NOW),
  );
});
afterEach(() => store.close());

describe("one-time links", () => {
  it("open the app's page with the token in the fragment, and work once", async () => {
    const { url, expiresAt } = await createOneTimeLink(store, {
      user: ann,
      purpose: "invite",
      origin: ORIGIN,
      now: NOW,
    });
    expect(url).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/account\/set-password#token=[A-Za-z0-9_-]{43}$/,
    );
    expect(expiresAt).toBe(NOW + 72 * 3_600_000);
    const token = tokenOf(url);
    expect(
      await useOneTimeLink(store, token, ["invite", "reset"], NOW),
    ).toEqual({ user: ann, purpose: "invite" });
    expect(
      await useOneTimeLink(store, token, ["invite", "reset"], NOW),
    ).toBeUndefined();
  });

  it("expire, and a new one replaces the old", async () => {
    const old = await createOneTimeLink(store, {
      user: ann,
      purpose: "reset",
      origin: ORIGIN,
      now: NOW,
    });
    const late = await createOneTimeLink(store, {
      user: ann,
      purpose: "sign-in",
      origin: ORIGIN,
      now: NOW,
    });
    const fresh = await createOneTimeLink(store, {
      user: ann,
      purpose: "reset",
      origin: ORIGIN,
      now: NOW,
    });
    expect(
      await useOneTimeLink(store, tokenOf(old.url), ["reset"], NOW),
    ).toBeUndefined();
    expect(
      await useOneTimeLink(
        store,
        tokenOf(late.url),
        ["sign-in"],
        NOW + 24 * 3_600_000,
      ),
    ).toBeUndefined();
    expect(
      await useOneTimeLink(store, tokenOf(fresh.url), ["reset"], NOW),
    ).toMatchObject({ purpose: "reset" });
  });

  it("are refused for another purpose, for a disabled user, and when malformed", async () => {
    const signIn = await createOneTimeLink(store, {
      user: ann,
      purpose: "sign-in",
      origin: ORIGIN,
      now: NOW,
    });
    expect(
      await useOneTimeLink(
        store,
        tokenOf(signIn.url),
        ["invite", "reset"],
        NOW,
      ),
    ).toBeUndefined();
    // Sent to the wrong endpoint, the link is not spent: it still signs in.
    expect(
      await useOneTimeLink(store, tokenOf(signIn.url), ["sign-in"], NOW),
    ).toEqual({ user: ann, purpose: "sign-in" });
    const invite = await createOneTimeLink(store, {
      user: ann,
      purpose: "invite",
      origin: ORIGIN,
      now: NOW,
    });
    await store.updateUser(ann.id, { disabledAt: new Date(NOW).toISOString() });
    expect(
      await useOneTimeLink(store, tokenOf(invite.url), ["invite"], NOW),
    ).toBeUndefined();
    expect(
      await useOneTimeLink(store, "../../etc", ["invite"], NOW),
    ).toBeUndefined();
  });
});
