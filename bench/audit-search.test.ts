import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { auditSearchFigures } from "./audit-search.ts";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the audit search figure", () => {
  it("seeds events the search finds and times three rounds", async () => {
    dir = mkdtempSync(join(tmpdir(), "vics-audit-bench-"));
    const figures = await auditSearchFigures(dir, 20_000);
    expect(figures.seedS).toBeGreaterThan(0);
    expect(figures.p50Ms).toBeGreaterThan(0);
    expect(figures.spreadMs[0]).toBeLessThanOrEqual(figures.p50Ms);
    expect(figures.spreadMs[1]).toBeGreaterThanOrEqual(figures.p50Ms);
  });
});
