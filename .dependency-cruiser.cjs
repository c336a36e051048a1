// The layout's import rules, checked on the files each import resolves to (through tsconfig and
// the npm workspaces' @vics/* packages), not on the import's text: decision 030 states the
// workspace and web rules, decision 061 why dependency-cruiser holds them and the layers inside
// each server. `npm run lint` runs it after ESLint; ESLint keeps what is not an import rule
// (process.env only in env.ts).

const WORKSPACES = "shared|server-kit|fleet|service|proxy|web|e2e";

// Each server's features and layers (decision 064 for the proxy's), shared with the test that
// probes every entry.
const { FEATURES, LAYERS, testCodeRegexes } = require("./layout.cjs");

/** Code only tests load (layout.cjs, the list ESLint reads too). */
const TEST_CODE = testCodeRegexes();

/** A rule that one workspace imports none of `forbidden` (a regex alternation). */
function downwards(name, workspace, forbidden, comment, options = {}) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: `^${workspace}/`, ...options.from },
    to: { path: `^(${forbidden})/` },
  };
}

const featureRules = Object.entries(FEATURES).map(([server, features]) => ({
  name: `${server}-layers-import-no-feature`,
  comment: `${server}/src's ${LAYERS[server].join("/, ")}/ serve every feature and import none: what a feature and they both need belongs in the layer, and the feature passes its part in.`,
  severity: "error",
  from: { path: `^${server}/src/(${LAYERS[server].join("|")})/` },
  to: { path: `^${server}/src/(${features.join("|")})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "not-to-unresolvable",
      comment:
        "Every import resolves to a file: one that does not would pass every other rule unseen (a typo, or a package the config cannot resolve).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "no-circular",
      comment:
        "No import cycle, type-only imports included: a cycle means two modules are one, and neither can be read, tested or moved alone.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    downwards(
      "shared-imports-no-workspace",
      "shared",
      "server-kit|fleet|service|proxy|web|e2e",
      "@vics/shared is the bottom layer: it imports no other workspace.",
    ),
    downwards(
      "server-kit-imports-only-shared",
      "server-kit",
      "fleet|service|proxy|web|e2e",
      "@vics/server-kit is what both servers share (Node only): it imports only @vics/shared of our workspaces.",
    ),
    downwards(
      "fleet-imports-only-shared",
      "fleet",
      "server-kit|service|proxy|web|e2e",
      "@vics/fleet runs in the browser and in Node: it imports only @vics/shared of our workspaces.",
    ),
    downwards(
      "service-imports-only-shared",
      "service",
      "fleet|proxy|web|e2e",
      "The service imports only @vics/shared and @vics/server-kit of our workspaces.",
    ),
    downwards(
      "proxy-imports-shared-and-fleet",
      "proxy",
      "service|web|e2e",
      "The proxy imports only @vics/shared, @vics/server-kit and @vics/fleet; @vics/service only in its tests, as a real upstream.",
      { from: { pathNot: TEST_CODE } },
    ),
    downwards(
      "proxy-tests-import-no-web",
      "proxy",
      "web|e2e",
      "The proxy's tests import @vics/shared, @vics/server-kit, @vics/fleet and @vics/service (a real upstream), nothing else of ours.",
    ),
    downwards(
      "web-imports-shared-and-fleet",
      "web",
      "server-kit|service|proxy|e2e",
      "The web app imports only @vics/shared and @vics/fleet of our workspaces.",
    ),
    {
      name: "web-app-takes-no-test-code",
      comment:
        "Test code (any workspace's src/testing/, a web feature's testing/, a test file; layout.cjs's TEST_CODE) is for tests: it would ship test code to every browser.",
      severity: "error",
      from: { path: "^web/", pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: "no-relative-import-out-of-workspace",
      comment:
        "This path climbs out of its workspace. Import another workspace by its package name (@vics/...), through an entry its package.json exports. e2e may reach the repository's scripts/ (the stack it starts).",
      severity: "error",
      from: { path: `^(${WORKSPACES})/` },
      to: {
        dependencyTypes: ["local"],
        pathNot: [`^$1/`, "^node_modules/", "^scripts/"],
      },
    },
    {
      name: "no-relative-import-out-of-workspace-to-scripts",
      comment:
        "Only e2e reaches the repository's scripts/ (the stack it starts); a workspace imports another by its package name.",
      severity: "error",
      from: { path: `^(shared|server-kit|fleet|service|proxy|web)/` },
      to: { dependencyTypes: ["local"], path: "^scripts/" },
    },
    {
      name: "web-feature-imports-no-other-feature",
      comment:
        "A feature does not import another feature: what two features share belongs in web/src/lib or web/src/components.",
      severity: "error",
      from: { path: "^web/src/features/([^/]+)/" },
      to: { path: "^web/src/features/", pathNot: "^web/src/features/$1/" },
    },
    {
      name: "web-feature-imports-no-app",
      comment:
        "A feature does not import web/src/app: the app composes the features.",
      severity: "error",
      from: { path: "^web/src/features/" },
      to: { path: "^web/src/app/" },
    },
    {
      name: "web-app-takes-features-by-index",
      comment:
        "The app takes a feature through its index.ts, never its internals.",
      severity: "error",
      from: { path: "^web/src/app/" },
      to: {
        path: "^web/src/features/[^/]+/",
        pathNot: String.raw`^web/src/features/[^/]+/index\.tsx?$`,
      },
    },
    {
      name: "web-shared-parts-import-no-feature",
      comment:
        "web/src/components and web/src/lib serve every feature and import none (nor the app).",
      severity: "error",
      from: { path: "^web/src/(components|lib)/" },
      to: { path: "^web/src/(features|app)/" },
    },
    {
      name: "web-test-support-imports-no-feature",
      comment:
        "web/src/testing serves every feature's tests and imports no feature (it may render the app).",
      severity: "error",
      from: { path: "^web/src/testing/" },
      to: { path: "^web/src/features/" },
    },
    ...featureRules,
    {
      name: "proxy-gateway-imports-no-team",
      comment:
        "The gateway (proxy/src/gateway) takes the team application only through the ports it declares (gateway/asker.ts and gateway/ports.ts: who is asking, may they, record it), which app.ts wires to the team's parts (decision 064). The team may use the gateway's parts; a gateway test may build the whole proxy, team included.",
      severity: "error",
      from: { path: "^proxy/src/gateway/", pathNot: TEST_CODE },
      to: { path: "^proxy/src/team/" },
    },
    {
      name: "service-seed-imports-no-store",
      comment:
        "The seed generates the data a new store is filled with: it sits below the store and takes the vehicle's shape from domain/, so store and seed never import each other both ways.",
      severity: "error",
      from: { path: "^service/src/seed/" },
      to: { path: "^service/src/store/" },
    },
  ],
  options: {
    // Type-only imports count: a cycle through `import type` still ties two modules together.
    tsPreCompilationDeps: true,
    doNotFollow: { path: ["node_modules"] },
    exclude: {
      path: [
        "(^|/)node_modules/",
        "(^|/)dist/",
        "^\\.tools/",
        "^data/",
        "(^|/)coverage/",
        "(^|/)test-results/",
        "(^|/)playwright-report/",
        "^bench/results/",
      ],
    },
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
