// The layers are held by a tool (issue 36): dependency-cruiser, run by `npm run lint` with
// .dependency-cruiser.cjs, refuses each import that breaks a layout rule. The test builds a
// small copy of the house in a temporary folder (the root package.json's workspaces, each with
// its real package.json exports, linked as @vics/* in node_modules the way npm links them, and
// stand-ins for the repository's files the probes import), writes one probe import per rule and
// a few allowed ones beside them, cruises it with the repository's own config, and checks that
// exactly the probes are refused, each by its rule. Nothing is written into the working tree.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldersUnder, readRepository } from "./docs-map.ts";

const root = join(import.meta.dirname, "..");
const CONFIG = join(root, ".dependency-cruiser.cjs");
const DEPCRUISE = join(
  root,
  "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs",
);

type Server = "proxy" | "service";
type Lists = Record<Server, string[]>;
/** The servers' features, layers and the folders that are neither, as the config reads them. */
const { FEATURES, LAYERS, NEITHER } = createRequire(import.meta.url)(
  "../layout.cjs",
) as { FEATURES: Lists; LAYERS: Lists; NEITHER: Lists };
const SERVERS: Server[] = ["proxy", "service"];

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(join(root, path), "utf8")) as T;
}

/** The workspaces, as the root package.json lists them. */
const WORKSPACES = readJson<{ workspaces: string[] }>(
  "package.json",
).workspaces;

/**
 * A workspace's package.json as the copy carries it: its name, and its real `exports`, which
 * decide what another workspace may import (none: any path of the package).
 */
function manifestOf(workspace: string) {
  const { name, type, exports } = readJson<{
    name: string;
    type?: string;
    exports?: object;
  }>(`${workspace}/package.json`);
  return { name, type, exports };
}

/**
 * Files the probes import, each a module of its own in the copy: files of the repository, which
 * the packages' real exports reach (a test below checks that each is still there).
 */
const TARGETS = [
  "shared/src/index.ts",
  "server-kit/src/logger.ts",
  "shared/src/testing/free-port.ts",
  "fleet/src/index.ts",
  "fleet/src/testing/answers.ts",
  "service/src/testing/index.ts",
  "service/src/store/store.ts",
  "service/src/routes/insurance.ts",
  "proxy/src/testing/index.ts",
  "proxy/src/team/auth/sessions.ts",
  "proxy/src/team/watch/sweep.ts",
  "proxy/src/team/http/iso-time.ts",
  "proxy/src/gateway/http/problem.ts",
  "web/src/app/app.tsx",
  "web/src/features/fleet/index.ts",
  "web/src/features/fleet/api/fleet-client.ts",
  "web/src/features/fleet/testing/results.ts",
  "web/src/lib/dates.test.ts",
  "scripts/start.ts",
];

/** A probe: its file, what it imports, and the rule that refuses it (none: it is allowed). */
interface Probe {
  file: string;
  imports: string;
  rule?: string;
}

const PROBES: Probe[] = [
  // Workspaces import downwards.
  {
    file: "shared/src/up.ts",
    imports: "@vics/fleet",
    rule: "shared-imports-no-workspace",
  },
  {
    file: "fleet/src/up.ts",
    imports: "@vics/service/testing",
    rule: "fleet-imports-only-shared",
  },
  { file: "fleet/src/down.ts", imports: "@vics/shared" },
  {
    file: "service/src/up.ts",
    imports: "@vics/fleet",
    rule: "service-imports-only-shared",
  },
  {
    file: "proxy/src/up.ts",
    imports: "@vics/service/testing",
    rule: "proxy-imports-shared-and-fleet",
  },
  { file: "proxy/src/down.ts", imports: "@vics/fleet" },
  { file: "proxy/src/upstream.test.ts", imports: "@vics/service/testing" },
  // Test support, a workspace's src/testing/, is test code too (layout.cjs's TEST_CODE).
  {
    file: "proxy/src/testing/real-upstream.ts",
    imports: "@vics/service/testing",
  },
  { file: "proxy/src/testing/index.ts", imports: "@vics/service/testing" },
  {
    file: "proxy/src/web.test.ts",
    imports: "@vics/web/src/app/app.tsx",
    rule: "proxy-tests-import-no-web",
  },
  // The proxy exports only its test support; from a web test, so that only this rule refuses it.
  {
    file: "web/src/lib/up.test.ts",
    imports: "@vics/proxy/testing",
    rule: "web-imports-shared-and-fleet",
  },
  {
    file: "web/src/lib/logger.ts",
    imports: "@vics/server-kit/logger",
    rule: "web-imports-shared-and-fleet",
  },
  {
    file: "fleet/src/logger.ts",
    imports: "@vics/server-kit/logger",
    rule: "fleet-imports-only-shared",
  },
  {
    file: "shared/src/logger.ts",
    imports: "@vics/server-kit/logger",
    rule: "shared-imports-no-workspace",
  },
  {
    file: "server-kit/src/store.ts",
    imports: "@vics/service/testing",
    rule: "server-kit-imports-only-shared",
  },
  { file: "server-kit/src/contract.ts", imports: "@vics/shared" },
  { file: "service/src/logger.ts", imports: "@vics/server-kit/logger" },
  { file: "proxy/src/logger.ts", imports: "@vics/server-kit/logger" },
  {
    file: "web/src/lib/fixtures.ts",
    imports: "@vics/shared/testing/free-port",
    rule: "web-app-takes-no-test-code",
  },
  {
    file: "web/src/lib/fixtures.test.ts",
    imports: "@vics/shared/testing/free-port",
  },
  {
    file: "web/src/lib/answers.ts",
    imports: "@vics/fleet/testing/answers",
    rule: "web-app-takes-no-test-code",
  },
  {
    file: "web/src/features/fleet/components/results.ts",
    imports: "../testing/results.ts",
    rule: "web-app-takes-no-test-code",
  },
  {
    file: "web/src/lib/takes-a-test.ts",
    imports: "./dates.test.ts",
    rule: "web-app-takes-no-test-code",
  },
  // Test code may take test code: a feature's testing/, web/src/testing and a test file.
  {
    file: "web/src/features/fleet/testing/answers.ts",
    imports: "@vics/fleet/testing/answers",
  },
  {
    file: "web/src/testing/fixtures.ts",
    imports: "@vics/shared/testing/free-port",
  },
  {
    file: "web/src/features/fleet/components/results.test.ts",
    imports: "../testing/results.ts",
  },
  { file: "e2e/journey.ts", imports: "@vics/proxy/testing" },
  // No relative import climbs out of its workspace; only e2e reaches scripts/.
  {
    file: "service/src/climb.ts",
    imports: "../../shared/src/index.ts",
    rule: "no-relative-import-out-of-workspace",
  },
  {
    file: "proxy/src/start.ts",
    imports: "../../scripts/start.ts",
    rule: "no-relative-import-out-of-workspace-to-scripts",
  },
  { file: "e2e/start.ts", imports: "../scripts/start.ts" },
  // Web features stay apart; the app takes them by index.ts; the shared parts take none.
  {
    file: "web/src/features/insurance/other.ts",
    imports: "../fleet/index.ts",
    rule: "web-feature-imports-no-other-feature",
  },
  { file: "web/src/features/fleet/own.ts", imports: "./api/fleet-client.ts" },
  {
    file: "web/src/features/insurance/app.ts",
    imports: "../../app/app.tsx",
    rule: "web-feature-imports-no-app",
  },
  {
    file: "web/src/app/inside.ts",
    imports: "../features/fleet/api/fleet-client.ts",
    rule: "web-app-takes-features-by-index",
  },
  { file: "web/src/app/index-only.ts", imports: "../features/fleet/index.ts" },
  {
    file: "web/src/components/feature.ts",
    imports: "../features/fleet/index.ts",
    rule: "web-shared-parts-import-no-feature",
  },
  {
    file: "web/src/lib/app.ts",
    imports: "../app/app.tsx",
    rule: "web-shared-parts-import-no-feature",
  },
  {
    file: "web/src/testing/feature.ts",
    imports: "../features/fleet/index.ts",
    rule: "web-test-support-imports-no-feature",
  },
  { file: "web/src/testing/app.ts", imports: "../app/app.tsx" },
  // A feature may use a layer and another feature; the layer probes are generated below.
  { file: "proxy/src/team/auth/uses-watch.ts", imports: "../watch/sweep.ts" },
  { file: "proxy/src/team/auth/uses-http.ts", imports: "../http/iso-time.ts" },
  // The gateway takes the team only through its ports; the team may use the gateway's parts.
  {
    file: "proxy/src/gateway/forward/asks-team.ts",
    imports: "../../team/auth/sessions.ts",
    rule: "proxy-gateway-imports-no-team",
  },
  {
    file: "proxy/src/team/auth/problems.ts",
    imports: "../../gateway/http/problem.ts",
  },
  {
    file: "proxy/src/gateway/forward/whole-proxy.test.ts",
    imports: "../../team/auth/sessions.ts",
  },
  {
    file: "service/src/seed/store.ts",
    imports: "../store/store.ts",
    rule: "service-seed-imports-no-store",
  },
  { file: "service/src/routes/store.ts", imports: "../store/store.ts" },
  // Every import resolves.
  {
    file: "service/src/typo.ts",
    imports: "./no-such-file.ts",
    rule: "not-to-unresolvable",
  },
];

/**
 * One probe per layer and feature of each server: a file in the layer importing a file of the
 * feature, so a list that loses an entry, or a rule that narrows, fails here. A gateway layer's
 * import of a team feature is left out: proxy-gateway-imports-no-team refuses it as well, and
 * the probe would be refused twice.
 */
function layerProbes(): Probe[] {
  return SERVERS.flatMap((server) =>
    LAYERS[server].flatMap((layer) =>
      FEATURES[server]
        .filter(
          (feature) =>
            !(layer.startsWith("gateway/") && feature.startsWith("team/")),
        )
        .map((feature) => ({
          file: `${server}/src/${layer}/to-${feature.replace("/", "-")}.ts`,
          // Layers and features are sibling folders, so the path always starts with "../".
          imports: posix.relative(
            `${server}/src/${layer}`,
            featureFile(server, feature),
          ),
          rule: `${server}-layers-import-no-feature`,
        })),
    ),
  );
}

function featureFile(server: Server, feature: string): string {
  return `${server}/src/${feature}/probe.ts`;
}

PROBES.push(...layerProbes());

/** Two modules tied only by type imports: a cycle all the same. */
const CYCLE = {
  "service/src/domain/plan.ts":
    'import type { Key } from "./key.ts";\nexport type Plan = { key: Key };\n',
  "service/src/domain/key.ts":
    'import type { Plan } from "./plan.ts";\nexport type Key = { plan: Plan };\n',
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

let house: string;
let violations: Violation[];
let lint: { status: number | null; output: string };

/** The dependency-cruiser command of the root package.json's lint script, as its arguments. */
function lintArguments(): string[] {
  const manifest = readJson<{ scripts: { lint: string } }>("package.json");
  const command = manifest.scripts.lint
    .split("&&")
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === "depcruise");
  if (!command) throw new Error("the lint script runs no depcruise");
  return command.slice(1);
}

/** Runs dependency-cruiser in the copy of the house. */
function depcruise(args: string[]) {
  return spawnSync(process.execPath, [DEPCRUISE, ...args], {
    cwd: house,
    encoding: "utf8",
  });
}

function write(path: string, text: string) {
  mkdirSync(dirname(join(house, path)), { recursive: true });
  writeFileSync(join(house, path), text);
}

beforeAll(() => {
  house = mkdtempSync(join(tmpdir(), "vics-layers-"));
  write("package.json", JSON.stringify({ name: "vics", private: true }));
  // The config resolves through the repository's tsconfig; the copy carries a plain one.
  write(
    "tsconfig.base.json",
    JSON.stringify({ compilerOptions: { module: "NodeNext" } }),
  );
  for (const workspace of WORKSPACES) {
    const manifest = manifestOf(workspace);
    write(`${workspace}/package.json`, JSON.stringify(manifest));
    // Linked the way npm links a workspace: node_modules/@vics/<name> -> ../../<workspace>.
    const link = join(house, "node_modules", manifest.name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(relative(dirname(link), join(house, workspace)), link);
  }
  const featureFiles = SERVERS.flatMap((server) =>
    FEATURES[server].map((feature) => featureFile(server, feature)),
  );
  for (const target of [...TARGETS, ...featureFiles])
    write(target, "export const here = true;\n");
  for (const { file, imports } of PROBES)
    write(file, `export * from "${imports}";\n`);
  for (const [file, text] of Object.entries(CYCLE)) write(file, text);

  const json = depcruise([".", "--config", CONFIG, "--output-type", "json"]);
  if (!json.stdout) throw new Error(json.stderr);
  const result = JSON.parse(json.stdout) as {
    summary: { violations: Violation[] };
  };
  violations = result.summary.violations;
  // The lint's own command, its config swapped for the repository's by absolute path.
  const args = lintArguments().map((arg) =>
    arg.endsWith(".dependency-cruiser.cjs") ? CONFIG : arg,
  );
  const run = depcruise(args);
  lint = { status: run.status, output: run.stdout + run.stderr };
}, 60_000);

afterAll(() => {
  if (house) rmSync(house, { recursive: true, force: true });
});

describe("the layout's rules, held by dependency-cruiser", () => {
  it("makes `npm run lint` fail, naming each rule broken", () => {
    expect(lint.status).not.toBe(0);
    for (const { rule } of PROBES.filter((probe) => probe.rule)) {
      expect(lint.output).toContain(`error ${rule}:`);
    }
    expect(lint.output).toContain("error no-circular:");
  });

  it.each(PROBES.filter((probe) => probe.rule))(
    "refuses $file importing $imports ($rule)",
    ({ file, rule }) => {
      const refused = violations.filter((violation) => violation.from === file);
      expect(refused.map((violation) => violation.rule.name)).toEqual([rule]);
    },
  );

  it("refuses nothing else: every allowed import passes", () => {
    const refused = new Set(violations.map((violation) => violation.from));
    const allowed = PROBES.filter((probe) => !probe.rule).map(
      (probe) => probe.file,
    );
    expect(allowed.filter((file) => refused.has(file))).toEqual([]);
    const expected = new Set([
      ...PROBES.filter((probe) => probe.rule).map((probe) => probe.file),
      ...Object.keys(CYCLE),
    ]);
    expect([...refused].filter((file) => !expected.has(file))).toEqual([]);
  });

  it("refuses a cycle made only of type imports", () => {
    const cycles = violations.filter(
      (violation) => violation.rule.name === "no-circular",
    );
    expect(cycles.length).toBeGreaterThan(0);
    for (const cycle of cycles) {
      expect(Object.keys(CYCLE)).toContain(cycle.from);
      expect(Object.keys(CYCLE)).toContain(cycle.to);
    }
  });
});

describe("the probes' targets", () => {
  it("are files of the repository", () => {
    const { files } = readRepository(root);
    expect(TARGETS.filter((target) => !files.includes(target))).toEqual([]);
  });
});

describe("the servers' folders", () => {
  const { files } = readRepository(root);
  const sets: { server: Server; under: string; prefix: string }[] = [
    { server: "service", under: "service/src", prefix: "" },
    { server: "proxy", under: "proxy/src/gateway", prefix: "gateway/" },
    { server: "proxy", under: "proxy/src/team", prefix: "team/" },
  ];

  it.each(sets)(
    "every folder of $under is a feature, a layer or neither",
    ({ server, under, prefix }) => {
      const listed = [
        ...FEATURES[server],
        ...LAYERS[server],
        ...NEITHER[server],
      ];
      const folders = foldersUnder(files, under).map((name) => prefix + name);
      expect(folders.length).toBeGreaterThan(1);
      expect(folders.filter((folder) => !listed.includes(folder))).toEqual([]);
    },
  );

  it.each(SERVERS)("every entry of %s is one folder in one list", (server) => {
    const listed = [...FEATURES[server], ...LAYERS[server], ...NEITHER[server]];
    expect(listed.filter((entry, at) => listed.indexOf(entry) !== at)).toEqual(
      [],
    );
    const missing = listed.filter(
      (entry) =>
        !files.some((file) => file.startsWith(`${server}/src/${entry}/`)),
    );
    expect(missing).toEqual([]);
  });
});
