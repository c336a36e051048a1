import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { edges } from "./edges.ts";

/** An app behind `edges` whose checks note their names, and throw when told to. */
function noted(refuse: ReadonlySet<string> = new Set()) {
  const ran: string[] = [];
  const check = (name: string) => (_c: AppContext) => {
    ran.push(name);
    if (refuse.has(name)) throw new Error(`${name} refused`);
  };
  const app = new Hono<AppEnv>();
  app.use(
    edges({
      host: check("host"),
      browser: check("browser"),
      body: check("body"),
      navigations: new Set(["/navigate"]),
    }),
  );
  app.all("*", (c) => c.text("answered"));
  app.onError((error, c) => c.text(error.message, 400));
  return { app, ran };
}

describe("the edges as one middleware", () => {
  it("checks the host, then the browser, then the body, before the route", async () => {
    const { app, ran } = noted();
    const response = await app.request("/api/anything");
    expect(await response.text()).toBe("answered");
    expect(ran).toEqual(["host", "browser", "body"]);
  });

  it("leaves out the browser checks on a navigation's path only", async () => {
    const { app, ran } = noted();
    await app.request("/navigate");
    expect(ran).toEqual(["host", "body"]);
  });

  it("stops at the first check that refuses, and the error handler answers", async () => {
    const { app, ran } = noted(new Set(["browser"]));
    const response = await app.request("/api/anything");
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("browser refused");
    expect(ran).toEqual(["host", "browser"]);
  });
});
