import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ownRequestId, requestId } from "./request-id.ts";
import type { ServerEnv } from "./server-env.ts";

function app() {
  const app = new Hono<ServerEnv>();
  app.use(requestId);
  app.get("/", (c) => c.text(c.get("requestId")));
  return app;
}

describe("requestId", () => {
  it("keeps a short, plain id the client sent, on the context and the answer", async () => {
    const response = await app().request("/", {
      headers: { "X-Request-Id": "abc-123" },
    });
    expect(await response.text()).toBe("abc-123");
    expect(response.headers.get("X-Request-Id")).toBe("abc-123");
  });

  it.each([
    ["none", undefined],
    ["one too long", "x".repeat(65)],
    ["one with spaces", "a b"],
  ])("makes its own for %s", async (_case, sent) => {
    const response = await app().request("/", {
      headers: sent === undefined ? {} : { "X-Request-Id": sent },
    });
    const id = await response.text();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("X-Request-Id")).toBe(id);
  });
});

describe("ownRequestId", () => {
  it("always answers its own id, and keeps a plain one the client sent as the correlation id", async () => {
    const app = new Hono<ServerEnv>();
    app.use(ownRequestId);
    app.get("/", (c) =>
      c.json({ id: c.get("requestId"), correlation: c.get("correlationId") }),
    );
    const sent = await app.request("/", {
      headers: { "X-Request-Id": "abc-123" },
    });
    const ids = (await sent.json()) as { id: string; correlation?: string };
    expect(ids.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids.correlation).toBe("abc-123");
    expect(sent.headers.get("X-Request-Id")).toBe(ids.id);
    const hostile = await app.request("/", {
      headers: { "X-Request-Id": "a b <script>" },
    });
    expect(await hostile.json()).not.toHaveProperty("correlation");
  });
});
