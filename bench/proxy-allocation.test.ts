import { expect, it } from "vitest";
import { allocationPerCheck } from "./proxy-allocation.ts";

it("counts what a signed-in check allocates, every check answered 200", async () => {
  // A check that was refused would throw; one that allocated nothing would be no check at all.
  const figure = await allocationPerCheck(50);
  expect(figure.checks).toBe(50);
  expect(figure.bytesPerCheck).toBeGreaterThan(1024);
});
