import { describe, expect, it } from "vitest";

describe("zod-jitless", () => {
  it("makes zod jitless, whether zod loads before it or after it", async () => {
    await import("./zod-jitless.ts");
    // This zod was loaded before (by the tests' setup): it sees the setting.
    const loaded = await import("zod/v4/core");
    expect(loaded.config().jitless).toBe(true);
    // A zod that loads after it, as in the app, starts from the same setting.
    const fresh = (await import(
      /* @vite-ignore */ `${import.meta.resolve("zod/v4/core")}?fresh`
    )) as typeof loaded;
    expect(fresh).not.toBe(loaded);
    expect(fresh.config().jitless).toBe(true);
  });
});
