// Every route of the service fits Hono's RegExpRouter, one regular expression per method that
// builds nothing per match; one route it refuses (an `all` on a check's path, beside a bulk
// path of the same level) sends every request through the TrieRouter instead (decision 047).
import type { Hono } from "hono";
import { expect, it } from "vitest";
import { createTestService } from "./testing/index.ts";

it("matches every request with Hono's RegExpRouter", async () => {
  const service = await createTestService();
  try {
    const app = service.app as Hono;
    await app.request("/health");
    expect(app.router.name).toBe("SmartRouter + RegExpRouter");
  } finally {
    await service.close();
  }
});
