// Each workspace declares every package its code imports, test code and test support included
// (issue 36, point 5): a package another workspace happens to hoist into node_modules works
// until that workspace drops it. The imports are read by TypeScript's own pre-processor (the
// `import`/`export ... from` and `import()` specifiers of each file), not by a regex.
import { execFileSync } from "node:child_process";
import { builtinModules } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  workspaces?: string[];
}

function manifestOf(folder: string): Manifest {
  return JSON.parse(
    readFileSync(join(root, folder, "package.json"), "utf8"),
  ) as Manifest;
}

/** The workspaces, as the root package.json lists them for npm. */
const WORKSPACES = manifestOf(".").workspaces ?? [];

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return null;
  if (specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@")
    ? parts.slice(0, 2).join("/")
    : parts[0]!;
  return builtinModules.includes(name) ? null : name;
}

/** Where each package's code is: a workspace's folder, or the root package's two. */
const FOLDERS: Record<string, string[]> = {
  ...Object.fromEntries(
    WORKSPACES.map((workspace) => [workspace, [workspace]]),
  ),
  ".": ["scripts", "bench"],
};

/** Every package a workspace's tracked code imports, with one file that imports it. */
function importedPackages(workspace: string): Map<string, string> {
  const files = execFileSync("git", ["ls-files", ...FOLDERS[workspace]!], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => CODE.test(file));
  const imported = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    for (const { fileName } of ts.preProcessFile(text, true, true)
      .importedFiles) {
      const name = packageOf(fileName);
      if (name !== null && !imported.has(name)) imported.set(name, file);
    }
  }
  return imported;
}

describe("packageOf", () => {
  it.each([
    ["zod", "zod"],
    ["zod/mini", "zod"],
    ["@vics/server-kit/testing/memory-logger", "@vics/server-kit"],
    ["@tanstack/react-query", "@tanstack/react-query"],
    ["node:fs", null],
    ["fs", null],
    ["./here.ts", null],
    ["../there.ts", null],
  ])("%s is %s", (specifier, name) => {
    expect(packageOf(specifier)).toBe(name);
  });
});

it("reads the workspaces from the root package.json", () => {
  expect(WORKSPACES).toContain("shared");
});

describe.each([...WORKSPACES, "."])("%s", (workspace) => {
  it("declares every package its code and tests import", () => {
    const manifest = manifestOf(workspace);
    const declared = new Set([
      manifest.name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.devDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const imported = importedPackages(workspace);
    expect(imported.size).toBeGreaterThan(0);
    const undeclared = [...imported]
      .filter(([name]) => !declared.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(undeclared).toEqual([]);
  });
});
