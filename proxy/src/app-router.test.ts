// Every route of the proxy fits Hono's RegExpRouter, one regular expression per method that
// builds nothing per match; one route it refuses (a static segment beside a fleet's id, an
// `all` on a check's path beside a bulk path) sends every request through the TrieRouter
// instead, which allocated about 5 kB per check (decision 047).
import { expect, it } from "vitest";
import { createTestProxy } from "./testing/index.ts";

it("matches every request with Hono's RegExpRouter", async () => {
  const { anonymous } = createTestProxy({
    fetch: async () => new Response("{}"),
  });
  await anonymous.request("/api/auth/methods");
  expect(anonymous.router.name).toBe("SmartRouter + RegExpRouter");
});
