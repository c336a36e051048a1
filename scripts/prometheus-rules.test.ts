// deploy/prometheus/ as promtool reads it: the alerting rules are valid, each rule's firing and
// quiet cases in alerts.test.yml pass, and prometheus.yml, rendered with the example values,
// is a configuration Prometheus takes. A failure shows promtool's own words. promtool comes
// with Debian's prometheus package (.ci/run installs it); PROMTOOL names another.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderDeploy } from "./cluster/render.ts";
import { parseEnvironmentFile } from "./cluster/units.ts";

const root = join(import.meta.dirname, "..");
const deploy = join(root, "deploy");
const promtool = process.env.PROMTOOL || "/usr/bin/promtool";

/** promtool's exit code and everything it printed. */
function run(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(promtool, args, { cwd: root, encoding: "utf8" });
  if (result.error)
    throw new Error(
      `${promtool} did not run (${result.error.message}): apt-get install -y prometheus`,
    );
  return { status: result.status, output: result.stdout + result.stderr };
}

/** Passes when promtool exits 0; else fails with what it printed. */
function expectPromtoolPasses(...args: string[]) {
  const { status, output } = run(...args);
  if (status !== 0)
    throw new Error(`promtool ${args.join(" ")} exited ${status}:\n${output}`);
  return output;
}

describe("deploy/prometheus", () => {
  const out = mkdtempSync(join(tmpdir(), "vics-prometheus-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("its alerting rules are valid (promtool check rules)", () => {
    expect(
      expectPromtoolPasses("check", "rules", "deploy/prometheus/alerts.yml"),
    ).toMatch(/SUCCESS: \d+ rules found/);
  });

  it("each rule fires and stays quiet as its unit tests say (promtool test rules)", () => {
    expect(
      expectPromtoolPasses(
        "test",
        "rules",
        "deploy/prometheus/alerts.test.yml",
      ),
    ).toContain("SUCCESS");
    // promtool evaluates every rule each minute of each case: days of them for the sweep's.
  }, 60_000);

  it("a rule test that fails fails this test, with promtool's words", () => {
    // A copy of one test case whose alert is expected one minute too early, while pending.
    const broken = join(out, "broken.test.yml");
    const rules = join(deploy, "prometheus/alerts.yml");
    const text = `rule_files: [${JSON.stringify(rules)}]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'vics_ready{server="proxy", instance="a"}'
        values: "0x5"
    alert_rule_test:
      - eval_time: 1m
        alertname: VicsReplicaNotReady
        exp_alerts:
          - exp_labels: { severity: page, server: proxy, instance: a }
`;
    writeFileSync(broken, text);
    expect(() => expectPromtoolPasses("test", "rules", broken)).toThrow(
      /exited 1:[\s\S]*FAILED:[\s\S]*alertname: VicsReplicaNotReady, time: 1m/,
    );
  });

  it("prometheus.yml rendered with the example values is a valid configuration (promtool check config)", () => {
    const values = parseEnvironmentFile(
      readFileSync(join(deploy, "values.example.env"), "utf8"),
    );
    const written = renderDeploy(deploy, out, {
      ...values,
      ALERT_RULES_FILE: join(deploy, "prometheus/alerts.yml"),
    });
    const output = expectPromtoolPasses(
      "check",
      "config",
      written["prometheus/prometheus.yml"],
    );
    expect(output).toMatch(/SUCCESS: \d+ rule files found/);
  });
});
