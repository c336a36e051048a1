import { describe, expect, it } from "vitest";
import { openResources } from "./open-resources.ts";

describe("openResources", () => {
  it("closes what is still open, the newest first, each once", async () => {
    const closed: string[] = [];
    const resources = openResources();
    const first = resources.add(async () => void closed.push("first"));
    const second = resources.add(async () => void closed.push("second"));
    resources.add(async () => void closed.push("third"));
    await second();
    await second();
    await resources.closeAll();
    await first();
    await resources.closeAll();
    expect(closed).toEqual(["second", "third", "first"]);
  });

  it("goes on closing when one close fails", async () => {
    const closed: string[] = [];
    const resources = openResources();
    resources.add(async () => void closed.push("first"));
    resources.add(async () => {
      throw new Error("already gone");
    });
    await resources.closeAll();
    expect(closed).toEqual(["first"]);
  });
});
