import { describe, expect, it } from "vitest";
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
});
