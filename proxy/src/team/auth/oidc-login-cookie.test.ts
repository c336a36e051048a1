import { describe, expect, it } from "vitest";
import {
  openPendingLogin,
  pendingLoginKey,
  sealPendingLogin,
  type PendingLogin,
} from "./oidc-login-cookie.ts";

const key = pendingLoginKey("a-client-secret-of-some-length");
const login: PendingLogin = {
  state: "s",
  nonce: "n",
  codeVerifier: "v".repeat(43),
  returnTo: "/fleet?tab=1",
  expiresAt: 1_000_000,
};

describe("a pending OIDC login sealed in a cookie", () => {
  it("opens with the same key before it expires, and hides what it holds", () => {
    const cookie = sealPendingLogin(login, key);
    expect(openPendingLogin(cookie, key, 999_999)).toEqual(login);
    expect(Buffer.from(cookie, "base64url").toString()).not.toContain(
      login.codeVerifier,
    );
    expect(sealPendingLogin(login, key)).not.toBe(cookie);
  });

  it("refuses it expired, changed anywhere, cut short, or sealed with another secret", () => {
    const cookie = sealPendingLogin(login, key);
    expect(openPendingLogin(cookie, key, 1_000_000)).toBeUndefined();
    const bytes = Buffer.from(cookie, "base64url");
    for (let at = 0; at < bytes.length; at += 7) {
      const changed = Buffer.from(bytes);
      changed[at] = changed[at]! ^ 1;
      expect(
        openPendingLogin(changed.toString("base64url"), key, 0),
      ).toBeUndefined();
    }
    expect(openPendingLogin(cookie.slice(0, -3), key, 0)).toBeUndefined();
    expect(
      openPendingLogin(cookie, pendingLoginKey("another-secret"), 0),
    ).toBeUndefined();
    for (const junk of [undefined, "", "x", "a".repeat(5000)])
      expect(openPendingLogin(junk, key, 0)).toBeUndefined();
  });
});
