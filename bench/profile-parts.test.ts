// The parts of profile-split.ts name code by pattern: a script URL, or a function's name. Nothing
// else ties a pattern to the code, so a file or function renamed away from its pattern would move
// its µs to "other" without a word. Each alternative of each pattern must still name something:
// a URL one a tracked file, an installed package's file or a Node built-in, as V8 writes its URL;
// a function name one a function the floor defines (careful-bff-server.ts and the modules it
// imports). V8's own frames, "(garbage collector)" and the like, are not code to look for.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { FLOOR_PARTS, PROXY_PARTS, type Part } from "./profile-split.ts";

const root = join(import.meta.dirname, "..");
const FLOOR_SERVER = join(root, "bench/floors/careful-bff-server.ts");

/** A pattern's top-level alternatives: `a|b(c|d)` is `a` and `b(c|d)`. */
function alternatives(pattern: RegExp): RegExp[] {
  const found: string[] = [];
  let depth = 0;
  let start = 0;
  const source = pattern.source;
  for (let at = 0; at < source.length; at++) {
    const char = source[at];
    if (char === "\\") at++;
    else if (char === "(" || char === "[") depth++;
    else if (char === ")" || char === "]") depth--;
    else if (char === "|" && depth === 0) {
      found.push(source.slice(start, at));
      start = at + 1;
    }
  }
  found.push(source.slice(start));
  return found.map((alternative) => new RegExp(alternative, pattern.flags));
}

/** Every script URL a profile of ours could show. */
function scriptUrls(): string[] {
  const tracked = execFileSync("git", ["ls-files"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  })
    .split("\n")
    .filter(Boolean);
  const installed = readdirSync(join(root, "node_modules"), {
    recursive: true,
  }).map((path) => `node_modules/${String(path)}`);
  return [
    ...[...tracked, ...installed].map(
      (path) => pathToFileURL(join(root, path)).href,
    ),
    ...builtinModules.map((name) => `node:${name}`),
  ];
}

/** The names V8 gives the functions of a file: declared, or a function assigned to a name. */
function functionNames(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
  );
  const names: string[] = [];
  const isFunction = (node: ts.Node | undefined) =>
    node !== undefined &&
    (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
  const visit = (node: ts.Node) => {
    if (
      (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) &&
      node.name
    )
      names.push(node.name.getText(source));
    if (
      (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) &&
      isFunction(node.initializer)
    )
      names.push(node.name.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The floor's server and every module it imports, ours or a package's. */
function floorFiles(): string[] {
  const require = createRequire(FLOOR_SERVER);
  const imported = ts
    .preProcessFile(readFileSync(FLOOR_SERVER, "utf8"), true, true)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((specifier) => !specifier.startsWith("node:"))
    .map((specifier) =>
      specifier.startsWith(".")
        ? resolve(dirname(FLOOR_SERVER), specifier)
        : require.resolve(specifier),
    );
  return [FLOOR_SERVER, ...imported];
}

/** Each part's patterns of one kind, one alternative a row, V8's own frames left out. */
function rows(parts: readonly Part[], kind: "url" | "functionName") {
  return parts.flatMap(({ name, [kind]: pattern }) =>
    pattern
      ? alternatives(pattern)
          .filter((alternative) => !alternative.source.startsWith("^\\("))
          .map((alternative) => ({ part: name, alternative }))
      : [],
  );
}

describe("alternatives", () => {
  it("splits a pattern at its top level only", () => {
    expect(alternatives(/a\|b|c(d|e)|[f|g]/).map(String)).toEqual([
      "/a\\|b/",
      "/c(d|e)/",
      "/[f|g]/",
    ]);
  });
});

describe("the profile's parts name code that is there", () => {
  const urls = scriptUrls();
  const functions = new Set(floorFiles().flatMap(functionNames));

  it.each([...rows(PROXY_PARTS, "url"), ...rows(FLOOR_PARTS, "url")])(
    "$part: $alternative matches a script",
    ({ alternative }) => {
      expect(urls.some((url) => alternative.test(url))).toBe(true);
    },
  );

  it.each(rows(FLOOR_PARTS, "functionName"))(
    "$part: $alternative names a function of the floor",
    ({ alternative }) => {
      expect([...functions].some((name) => alternative.test(name))).toBe(true);
    },
  );

  it("leaves no pattern unchecked but V8's own frames", () => {
    expect(rows(FLOOR_PARTS, "functionName").length).toBeGreaterThan(3);
    expect(rows(PROXY_PARTS, "functionName")).toEqual([]);
  });
});
