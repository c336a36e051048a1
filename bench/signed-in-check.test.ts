import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { signedInCheckFigures } from "./signed-in-check.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the signed-in check's cost", () => {
  it("times session reads and audit appends on a store file of its own", async () => {
    dir = mkdtempSync(join(tmpdir(), "vics-signed-in-bench-"));
    const figures = await signedInCheckFigures(dir, ["AB12CDE"], 20);
    const { cpuUsPerCheck, sessionReadCpuUs, auditAppendCpuUs } = figures;
    for (const figure of Object.values(figures)) {
      expect(figure.fastest).toBeLessThanOrEqual(figure.median);
      expect(figure.slowest).toBeGreaterThanOrEqual(figure.median);
    }
    expect(auditAppendCpuUs.median).toBeGreaterThan(0);
    expect(cpuUsPerCheck.slowest).toBeGreaterThanOrEqual(
      Math.max(sessionReadCpuUs.fastest, auditAppendCpuUs.fastest),
    );
    expect(figures.auditAppendP50Us.median).toBeGreaterThan(0);
  });
});
