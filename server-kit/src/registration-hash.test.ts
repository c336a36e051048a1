import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { REMEMBERED_HASHES } from "./cached-hasher.ts";
import { registrationHasher } from "./registration-hash.ts";

describe("registrationHasher", () => {
  const hash = registrationHasher("a test key of some length");

  it("is short, stable under one key, and blind to spacing and case", () => {
    expect(hash("AB12CDE")).toMatch(/^[0-9a-f]{12}$/);
    expect(hash("ab12 cde")).toBe(hash("AB12CDE"));
    expect(hash("AB12-CDE")).toBe(hash("AB12CDE"));
  });

  it("differs between plates and between keys", () => {
    expect(hash("AB12CDF")).not.toBe(hash("AB12CDE"));
    expect(
      registrationHasher("another key entirely!").call(null, "AB12CDE"),
    ).not.toBe(hash("AB12CDE"));
  });

  it("without a key, makes a random one for the process", () => {
    expect(registrationHasher()("AB12CDE")).not.toBe(
      registrationHasher()("AB12CDE"),
    );
  });

  it("is the HMAC-SHA-256 of the normalised plate, the same when remembered and after", () => {
    const key = "a test key of some length";
    const hmac = (plate: string) =>
      createHmac("sha256", key).update(plate).digest("hex").slice(0, 12);
    const fresh = registrationHasher(key);
    expect(fresh("ab12 cde")).toBe(hmac("AB12CDE"));
    expect(fresh("ab12 cde")).toBe(hmac("AB12CDE"));
    // More plates than it remembers: the first is forgotten, then worked out again alike.
    for (let i = 0; i <= REMEMBERED_HASHES; i++) fresh(`AB${i}`);
    expect(fresh("ab12 cde")).toBe(hmac("AB12CDE"));
    expect(fresh("AB5")).toBe(hmac("AB5"));
  });
});
