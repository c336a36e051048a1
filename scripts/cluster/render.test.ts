import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEPLOY_FILES,
  deployValues,
  parseReplicaPorts,
  placeholders,
  REPLICA_ENV,
  renderDeploy,
  renderTemplate,
} from "./render.ts";
import { parseEnvironmentFile } from "./units.ts";

const root = join(import.meta.dirname, "../..");

describe("renderTemplate", () => {
  it("replaces every placeholder", () => {
    expect(
      renderTemplate("a={{A}} b={{B_2}} a={{A}}", { A: "1", B_2: "x" }),
    ).toBe("a=1 b=x a=1");
  });

  it("refuses a placeholder without a value, naming each", () => {
    expect(() => renderTemplate("{{A}} {{B}} {{C}}", { B: "" })).toThrow(
      "No value for A, C",
    );
  });

  it("leaves nginx's own $variables alone", () => {
    expect(renderTemplate("proxy_set_header Host $http_host;", {})).toBe(
      "proxy_set_header Host $http_host;",
    );
  });
});

describe("parseReplicaPorts", () => {
  it("reads each replica's port and its metrics port", () => {
    expect(parseReplicaPorts(" 3101:9101  3102:9102\n")).toEqual([
      { port: 3101, metricsPort: 9101 },
      { port: 3102, metricsPort: 9102 },
    ]);
    expect(parseReplicaPorts("")).toEqual([]);
  });

  it.each(["3101", "3101:", "3101:9101,3102:9102", "3101:70000"])(
    "refuses %s, naming it",
    (text) => {
      expect(() => parseReplicaPorts(text)).toThrow(/not a replica's port/);
    },
  );
});

describe("the deploy/ files", () => {
  const used = [
    ...new Set(
      [...DEPLOY_FILES, REPLICA_ENV].flatMap((file) =>
        placeholders(readFileSync(join(root, "deploy", file), "utf8")),
      ),
    ),
  ].sort();

  it("each value they need is explained in docs/deployment.md", () => {
    const guide = readFileSync(join(root, "docs/deployment.md"), "utf8");
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((name) => !guide.includes(`\`{{${name}}}\``))).toEqual(
      [],
    );
  });
});

describe("deploy/values.example.env", () => {
  const values = parseEnvironmentFile(
    readFileSync(join(root, "deploy/values.example.env"), "utf8"),
  );

  it("has a value for every placeholder of every deploy/ file", () => {
    for (const file of DEPLOY_FILES)
      expect(() =>
        renderTemplate(
          readFileSync(join(root, "deploy", file), "utf8"),
          deployValues(values),
        ),
      ).not.toThrow();
  });

  it("renders each replica's own env file, with its metrics port, and Prometheus's targets", () => {
    const out = mkdtempSync(join(tmpdir(), "vics-render-"));
    try {
      const written = renderDeploy(join(root, "deploy"), out, values);
      const env = (file: string) =>
        parseEnvironmentFile(readFileSync(written[file]!, "utf8"));
      expect(env("env/service-3101.env")).toEqual({ METRICS_PORT: "9101" });
      expect(env("env/service-3103.env")).toEqual({ METRICS_PORT: "9103" });
      expect(env("env/proxy-3202.env")).toEqual({ METRICS_PORT: "9202" });
      const prometheus = readFileSync(
        written["prometheus/prometheus.yml"],
        "utf8",
      );
      expect(prometheus).toContain(
        'targets: ["127.0.0.1:9101", "127.0.0.1:9102", "127.0.0.1:9103"]',
      );
      expect(prometheus).toContain(
        'targets: ["127.0.0.1:9201", "127.0.0.1:9202"]',
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
