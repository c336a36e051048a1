import { describe, expect, it } from "vitest";
import { shownPath, startSummary, type StartFacts } from "./summary.ts";

const FACTS: StartFacts = {
  root: "/repo",
  appUrl: "http://127.0.0.1:3000/",
  serviceUrl: "http://127.0.0.1:3001",
  sandbox: true,
  databasePath: "/repo/data/vics.sqlite",
  seededInMs: 3140,
  keyFile: "/repo/data/proxy-api-key",
  keyStatus: "new",
  watchKeyFile: "/repo/data/watch-api-key",
  watchKeyStatus: "new",
  logFiles: ["/repo/data/logs/service.log", "/repo/data/logs/proxy.log"],
};

describe("startSummary", () => {
  it("says what started where, and the URL once, last", () => {
    const summary = startSummary(FACTS);
    expect(summary).toBe(
      [
        "Service   http://127.0.0.1:3001 (sandbox on)",
        "Database  data/vics.sqlite (created and seeded in 3.1 s)",
        "Demo key  data/proxy-api-key (new; only the proxy reads it)",
        "Watch key data/watch-api-key (new; only the watched fleets' re-checks spend it)",
        "Logs      data/logs/service.log, data/logs/proxy.log (warnings and errors also appear here)",
        "",
        "VICS is running at http://127.0.0.1:3000/ — press Ctrl-C to stop.",
      ].join("\n"),
    );
    expect(summary.split("127.0.0.1:3000")).toHaveLength(2);
  });

  it("on a later start: an existing database, the key reused, sandbox as the service says", () => {
    const summary = startSummary({
      ...FACTS,
      seededInMs: undefined,
      keyStatus: "reused",
      watchKeyStatus: "reused",
      sandbox: false,
    });
    expect(summary).toContain("Database  data/vics.sqlite (existing)");
    expect(summary).toContain("(reused; only the proxy reads it)");
    expect(summary).toContain(
      "Watch key data/watch-api-key (reused; only the watched fleets' re-checks spend it)",
    );
    expect(summary).toContain("(sandbox off)");
  });

  it("names both metrics listeners when metrics are on, after the logs", () => {
    const lines = startSummary({
      ...FACTS,
      metricsUrls: {
        service: "http://127.0.0.1:9465/metrics",
        proxy: "http://127.0.0.1:9464/metrics",
      },
    }).split("\n");
    expect(lines[5]).toBe(
      "Metrics   service http://127.0.0.1:9465/metrics, proxy http://127.0.0.1:9464/metrics (never on the app's port)",
    );
    expect(lines[4]).toMatch(/^Logs /);
    expect(startSummary(FACTS)).not.toContain("Metrics");
    expect(
      startSummary({
        ...FACTS,
        metricsUrls: { service: "http://127.0.0.1:9500/metrics" },
      }).split("\n")[5],
    ).toBe(
      "Metrics   service http://127.0.0.1:9500/metrics (never on the app's port)",
    );
  });

  it("says why a saved key was replaced", () => {
    expect(startSummary({ ...FACTS, keyStatus: "replaced" })).toContain(
      "(new: the saved one is not accepted by this database; only the proxy reads it)",
    );
  });
});

describe("shownPath", () => {
  it.each([
    ["/repo/data/vics.sqlite", "data/vics.sqlite"],
    ["/tmp/vics/vics.sqlite", "/tmp/vics/vics.sqlite"],
    ["/repository-two/x", "/repository-two/x"],
    ["/repo", "/repo"],
  ])("%s is shown as %s", (path, shown) => {
    expect(shownPath("/repo", path)).toBe(shown);
  });
});
