import { describe, expect, it } from "vitest";
import { hasRole, isSameOriginPath } from "./access.ts";
import { ReturnToSchema } from "./auth.ts";

describe("a return-to address", () => {
  it("is a path on this site", () => {
    for (const path of [
      "/",
      "/fleet?tab=results#x",
      "/check/AB12CDE",
      "/a/../b",
    ])
      expect(isSameOriginPath(path)).toBe(true);
  });

  it("is never another origin, however it is spelled", () => {
    for (const path of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "javascript:alert(1)",
      "evil.example",
      "",
    ])
      expect(ReturnToSchema.safeParse(path).success).toBe(false);
  });
});

describe("roles", () => {
  it("include the roles before them", () => {
    expect(hasRole("admin", "fleet")).toBe(true);
    expect(hasRole("fleet", "staff")).toBe(true);
    expect(hasRole("staff", "fleet")).toBe(false);
    expect(hasRole("fleet", "admin")).toBe(false);
  });
});
