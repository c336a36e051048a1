import { describe, expect, it } from "vitest";
import {
  ARGON2_PARAMETERS,
  hashPassword,
  passwordProblem,
  verifyNothing,
  verifyPassword,
} from "./passwords.ts";

describe("password hashes", () => {
  it("are argon2id PHC strings with OWASP's parameters and a fresh salt each time", async () => {
    const first = await hashPassword("correct horse battery staple");
    const second = await hashPassword("correct horse battery staple");
    expect(first).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(ARGON2_PARAMETERS).toEqual({
      memory: 19456,
      passes: 2,
      parallelism: 1,
    });
    expect(first).not.toBe(second);
  });

  it("verify the right password only", async () => {
    const phc = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery staple", phc)).toBe(
      true,
    );
    expect(await verifyPassword("correct horse battery stapl", phc)).toBe(
      false,
    );
    expect(await verifyPassword("Correct horse battery staple", phc)).toBe(
      false,
    );
    expect(await verifyPassword("", phc)).toBe(false);
  });

  it("verify with the stored parameters, and refuse a malformed or foreign hash", async () => {
    // Made with other parameters (m=8192, t=3): still verifies.
    const older =
      "$argon2id$v=19$m=8192,t=3,p=1$c29tZXNhbHRzb21lc2FsdA$" +
      (await import("node:crypto"))
        .argon2Sync("argon2id", {
          message: "a long old password",
          nonce: Buffer.from("somesaltsomesalt"),
          memory: 8192,
          passes: 3,
          parallelism: 1,
          tagLength: 32,
        })
        .toString("base64")
        .replace(/=+$/, "");
    expect(await verifyPassword("a long old password", older)).toBe(true);
    for (const phc of [
      "",
      "plain",
      "$argon2i$v=19$m=19456,t=2,p=1$abc$def",
      "$2b$10$abcdefghijklmnopqrstuv",
    ]) {
      expect(await verifyPassword("anything at all", phc)).toBe(false);
    }
  });

  it("has a stand-in check that is always false", async () => {
    expect(await verifyNothing("correct horse battery staple")).toBe(false);
  });
});

describe("new passwords", () => {
  it("need 12 characters, counted as characters, with no rules about their kind", () => {
    expect(passwordProblem("short words")).toMatch(/at least 12 characters/);
    expect(passwordProblem("ünïcödé😀😀😀😀")).toMatch(/at least 12/);
    expect(passwordProblem("ünïcödé😀😀😀😀😀")).toBeUndefined();
    expect(passwordProblem("all lower case words")).toBeUndefined();
    expect(passwordProblem("x".repeat(257))).toMatch(/at most 256/);
  });

  it("are refused when they are on the common-password list, in any case", () => {
    expect(passwordProblem("qwertyuiop123")).toMatch(/often used/);
    expect(passwordProblem("QWERTYUIOP123")).toMatch(/often used/);
    expect(passwordProblem("Password1234!")).toMatch(/often used/);
    expect(passwordProblem("2024dragon!!!!")).toMatch(/often used/);
    expect(passwordProblem("aaaaaaaaaaaaaaa")).toMatch(/often used/);
    expect(passwordProblem("abababababab")).toMatch(/often used/);
    expect(passwordProblem("sunflower over the depot")).toBeUndefined();
    expect(passwordProblem("dragon fleet 2024")).toBeUndefined();
  });
});
