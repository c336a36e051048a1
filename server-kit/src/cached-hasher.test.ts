import { registrationHasher } from "./registration-hash.ts";
import { describe, expect, it } from "vitest";
import { cachedHasher } from "./cached-hasher.ts";

describe("a plate hasher with its cache", () => {
  it("gives the hasher's own hashes, and hashes a remembered plate only once", () => {
    const hasher = registrationHasher("a key for the test");
    const calls: string[] = [];
    const cached = cachedHasher((registration) => {
      calls.push(registration);
      return hasher(registration);
    }, 2);
    expect(cached("AB12CDE")).toBe(hasher("AB12CDE"));
    expect(cached("AB12CDE")).toBe(hasher("AB12CDE"));
    expect(cached("ab12 cde")).toBe(hasher("AB12CDE"));
    expect(calls).toEqual(["AB12CDE", "ab12 cde"]);
  });

  it("forgets the oldest plate past its size, and never keeps a long string", () => {
    const calls: string[] = [];
    const cached = cachedHasher((registration) => {
      calls.push(registration);
      return registration.toLowerCase();
    }, 2);
    cached("A1");
    cached("B2");
    cached("C3"); // A1 forgotten
    cached("B2");
    cached("A1");
    const long = "X".repeat(17);
    cached(long);
    cached(long);
    expect(calls).toEqual(["A1", "B2", "C3", "A1", long, long]);
  });
});
