import { describe, expect, it, vi } from "vitest";
import { RATE_LIMIT_KEY, recordRateLimit } from "./rate-limit-store.ts";

/** The store as a reloaded page starts it: a new module, with only what the tab kept. */
async function afterReload() {
  vi.resetModules();
  return import("./rate-limit-store.ts");
}

describe("the rate-limit store", () => {
  it("keeps the last reading, and when it was read, across a reload of the tab", async () => {
    recordRateLimit({ limit: 1200, remaining: 1147, resetSeconds: 40 }, 1000);
    const { getRateLimit } = await afterReload();
    expect(getRateLimit()).toEqual({
      limit: 1200,
      remaining: 1147,
      resetSeconds: 40,
      receivedAt: 1000,
    });
  });

  it("starts empty when the tab has kept nothing, or something it cannot read", async () => {
    expect((await afterReload()).getRateLimit()).toBeUndefined();
    window.sessionStorage.setItem(RATE_LIMIT_KEY, '{"limit":"lots"}');
    expect((await afterReload()).getRateLimit()).toBeUndefined();
  });

  it("does not show a reading kept before the meter showed one budget (one in requests)", async () => {
    window.sessionStorage.setItem(
      "vics:rate-limit",
      '{"limit":51,"remaining":49,"resetSeconds":40,"receivedAt":1000}',
    );
    expect((await afterReload()).getRateLimit()).toBeUndefined();
  });
});
