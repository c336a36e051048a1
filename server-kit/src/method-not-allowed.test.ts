import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { allowedMethods, answerWrongMethods } from "./method-not-allowed.ts";

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

  it("matches a parameter with a pattern of its own as Hono does", () => {
    const numbered = allowedMethods([
      { method: "get", path: "/v1/:id{[0-9]+}" },
    ]);
    expect(numbered("/v1/42")).toBe("GET, HEAD");
    expect(numbered("/v1/abc")).toBeUndefined();
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

  it("answers a wrong method on the app's routes under the prefix, registered before it, and lets the rest go on", async () => {
    const app = new Hono();
    app.get("/v1/vehicle/:registration/insurance", (c) => c.text("ok"));
    app.post("/v1/vehicle/bulk-insurance", (c) => c.text("ok"));
    app.get("/other/:id", (c) => c.text("ok"));
    answerWrongMethods(app, "/v1", (c, allow) => {
      throw new Error(`${c.req.method} refused; allow ${allow}`);
    });
    app.onError((error, c) => c.text(error.message, 405));
    app.get("/v1/later", (c) => c.text("later"));

    const wrong = await app.request("/v1/vehicle/AB12CDE/insurance", {
      method: "DELETE",
    });
    expect(wrong.status).toBe(405);
    expect(await wrong.text()).toBe("DELETE refused; allow GET, HEAD");
    expect(await (await app.request("/v1/vehicle/bulk-insurance")).text()).toBe(
      "GET refused; allow POST",
    );
    expect((await app.request("/v1/vehicle/AB12CDE/insurance")).status).toBe(
      200,
    );
    // Not under the prefix, unknown, or registered after it: not this fallback's to answer.
    expect((await app.request("/other/1", { method: "POST" })).status).toBe(
      404,
    );
    expect((await app.request("/v1/unknown", { method: "POST" })).status).toBe(
      404,
    );
    expect((await app.request("/v1/later", { method: "POST" })).status).toBe(
      404,
    );
    expect(app.router.name).toBe("SmartRouter + RegExpRouter");
  });
});
