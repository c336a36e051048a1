import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEPLOY_FILES, placeholders, renderTemplate } from "./render.ts";
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

describe("the deploy/ files", () => {
  const used = [
    ...new Set(
      DEPLOY_FILES.flatMap((file) =>
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
  it("has a value for every placeholder of every deploy/ file", () => {
    const values = parseEnvironmentFile(
      readFileSync(join(root, "deploy/values.example.env"), "utf8"),
    );
    for (const file of DEPLOY_FILES)
      expect(() =>
        renderTemplate(
          readFileSync(join(root, "deploy", file), "utf8"),
          values,
        ),
      ).not.toThrow();
  });
});
