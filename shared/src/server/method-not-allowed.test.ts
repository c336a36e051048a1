import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { allowedMethods } from "./method-not-allowed.ts";

const allow = allowedMethods([
  { method: "get", path: "/v1/vehicle/:registration/insurance" },
  { method: "post", path: "/v1/vehicle/bulk-insurance" },
  { method: "get", path: "/v1/openapi.json" },
  { method: "post", path: "/v1/openapi.json" },
]);

describe("allowedMethods", () => {
  it("says what a known path allows, HEAD with GET", () => {
    expect(allow("/v1/vehicle/AB12CDE/insurance")).toBe("GET, HEAD");
    expect(allow("/v1/vehicle/bulk-insurance")).toBe("POST");
    expect(allow("/v1/openapi.json")).toBe("GET, HEAD, POST");
  });

  it("knows no other path: a parameter is one whole segment, a dot is a dot", () => {
    expect(allow("/v1/vehicle/AB12CDE/insurance/more")).toBeUndefined();
    expect(allow("/v1/vehicle/AB/12/insurance")).toBeUndefined();
    expect(allow("/v1/vehicle//insurance")).toBeUndefined();
    expect(allow("/v1/openapiXjson")).toBeUndefined();
    expect(allow("/v1/vehicle/bulk-insurance/")).toBeUndefined();
  });

  it("refuses a parameter with a pattern of its own, which it could not match as Hono does", () => {
    expect(() =>
      allowedMethods([{ method: "get", path: "/v1/:id{[0-9]+}" }]),
    ).toThrow("plain :name parameters");
  });

  it("lets Hono keep its RegExpRouter, which an `all` route beside a static path loses", async () => {
    const routerOf = async (app: Hono) => {
      await app.request("/v1/vehicle/AB12CDE/insurance");
      return app.router.name;
    };
    const withFallback = new Hono();
    withFallback.get("/v1/vehicle/:registration/insurance", (c) =>
      c.text("ok"),
    );
    withFallback.post("/v1/vehicle/bulk-insurance", (c) => c.text("ok"));
    withFallback.all("/v1/*", (c) => c.text(allow(c.req.path) ?? "none", 405));
    expect(await routerOf(withFallback)).toBe("SmartRouter + RegExpRouter");
    const withAll = new Hono();
    withAll.get("/v1/vehicle/:registration/insurance", (c) => c.text("ok"));
    withAll.post("/v1/vehicle/bulk-insurance", (c) => c.text("ok"));
    withAll.all("/v1/vehicle/:registration/insurance", (c) => c.text("", 405));
    expect(await routerOf(withAll)).toBe("SmartRouter + TrieRouter");
  });
});
