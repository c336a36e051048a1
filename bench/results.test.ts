import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  RESULT_KEYS,
  datedFileName,
  resultsJson,
  writeResults,
} from "./results.ts";

const context = {
  machine: { cores: 2, memoryGiB: 23.4 },
  node: "v24.21.0",
  date: new Date("2026-01-05T09:30:12.345Z"),
};

describe("resultsJson", () => {
  it("has every headline key, null where not measured, then the machine, node and date", () => {
    const results = resultsJson(
      { service_rps: 5123.4567, nginx_rps: null, service_p50_ms: 3.2 },
      context,
    );
    for (const key of RESULT_KEYS) expect(results).toHaveProperty(key);
    expect(results.service_rps).toBe(5123.457);
    expect(results.nginx_rps).toBeNull();
    expect(results.fleet100k_browser_s).toBeNull();
    expect(results.service_p50_ms).toBe(3.2);
    expect(results.machine).toEqual({ cores: 2, memoryGiB: 23.4 });
    expect(results.node).toBe("v24.21.0");
    expect(results.date).toBe("2026-01-05T09:30:12.345Z");
  });

  it("writes NaN and Infinity as null, which JSON can hold", () => {
    const results = resultsJson(
      { service_rps: NaN, hello_rps: Infinity },
      context,
    );
    expect(results.service_rps).toBeNull();
    expect(results.hello_rps).toBeNull();
  });
});

describe("writeResults", () => {
  it("writes latest.json and a copy named by the UTC minute", () => {
    expect(datedFileName(context.date)).toBe("2026-01-05T0930.json");
    const directory = mkdtempSync(join(tmpdir(), "vics-bench-results-"));
    try {
      const results = resultsJson({ seed1m_s: 30 }, context);
      const paths = writeResults(directory, results, context.date);
      expect(paths).toEqual([
        join(directory, "latest.json"),
        join(directory, "2026-01-05T0930.json"),
      ]);
      for (const path of paths)
        expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(results);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
