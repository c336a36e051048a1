import { describe, expect, it } from "vitest";
import { bulkSandboxEffect, sandboxBulkError } from "./sandbox.ts";

describe("the sandbox registrations in a bulk list", () => {
  it.each([
    [[], false, false],
    [["AB12CDE", "ER19NFD", "ER19ERR"], false, false],
    [["AB12CDE", "ER19THR"], true, false],
    [["ER19SLO", "AB12CDE", "ER19SLO"], false, true],
    [["ER19SLO", "ER19THR"], true, true],
  ])("%j: throttled %s, slow %s", (registrations, throttled, slow) => {
    expect(bulkSandboxEffect(registrations)).toEqual({ throttled, slow });
  });

  it.each([
    ["ER19NFD", "Vehicle not found"],
    ["ER19ERR", "Temporarily unavailable, retry later"],
    ["ER19THR", undefined],
    ["ER19SLO", undefined],
    ["AB12CDE", undefined],
  ])("%s fails its item with %j", (registration, error) => {
    expect(sandboxBulkError(registration)).toBe(error);
  });
});
