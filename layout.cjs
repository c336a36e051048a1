// The layout's lists, each written once (issue 36): what is test code, which eslint.config.js
// (as globs) and .dependency-cruiser.cjs (as regexes) both read; and the servers' folders by
// kind, read by .dependency-cruiser.cjs (which refuses a layer importing a feature) and by
// scripts/layers.test.ts (which probes every entry and checks that every folder is listed), so a
// rule and its proof cannot drift apart.

/**
 * Code only tests load: it may reach further than the app (a real upstream, fixtures) and read
 * the environment. Test files beside the code, and test support, which has one name (issue 36):
 * a workspace's `src/testing/` (exported as `@vics/<workspace>/testing/*` where another needs
 * it) and a web feature's own `testing/`. (bench/floors/testing.ts keeps that name, but no rule
 * reads bench/, so the list has no one-file form.)
 */
const TEST_CODE = {
  suffixes: [".test.ts", ".test.tsx"],
  folders: ["testing"],
};

/** TEST_CODE as ESLint's globs. */
function testCodeGlobs() {
  return [
    ...TEST_CODE.suffixes.map((suffix) => `**/*${suffix}`),
    ...TEST_CODE.folders.map((folder) => `**/${folder}/**`),
  ];
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** TEST_CODE as dependency-cruiser's path regexes. */
function testCodeRegexes() {
  return [
    ...TEST_CODE.suffixes.map((suffix) => `${escape(suffix)}$`),
    ...TEST_CODE.folders.map((folder) => `/${escape(folder)}/`),
  ];
}

/**
 * Each server's feature folders: the parts that answer a user's need.
 * - proxy (decision 064): the gateway's forwarded checks (gateway/forward) and data pages
 *   (gateway/data); the team's sign-in and sessions (auth), users, audit, fleets, watched
 *   fleets (watch), notifications (notify) and limits.
 * - service: its routes and the operator's imports (import).
 */
const FEATURES = {
  proxy: [
    "gateway/data",
    "gateway/forward",
    "team/auth",
    "team/audit",
    "team/fleets",
    "team/limits",
    "team/notify",
    "team/users",
    "team/watch",
  ],
  service: ["import", "routes"],
};

/**
 * Each server's layers, which serve every feature and import none.
 * - proxy: the gateway's edges, upstream and http helpers; the team's http helpers, its jobs'
 *   times of day (schedule) and its store.
 * - service: its store and its http middleware.
 */
const LAYERS = {
  proxy: [
    "gateway/edges",
    "gateway/http",
    "gateway/upstream",
    "team/http",
    "team/schedule",
    "team/store",
  ],
  service: ["store", "http"],
};

/**
 * Folders that are neither, on purpose; a new folder goes in one of the three lists.
 * - proxy: the gateway's API key (keys), its OpenAPI copy (openapi, which describes the forwarded
 *   operations) and the serving of web/dist (static).
 * - service: domain/ (pure rules), keys/ (the API key model http authenticates with), sources/
 *   (the live registers' clients, whose answers the store caches and whose pauses http reports),
 *   seed/ (the synthetic data a new store is filled with; it sits below the store, see
 *   service-seed-imports-no-store), openapi/ (the generated document) and testing/ (test code).
 */
const NEITHER = {
  proxy: ["gateway/keys", "gateway/openapi", "gateway/static"],
  service: ["domain", "keys", "openapi", "seed", "sources", "testing"],
};

module.exports = {
  FEATURES,
  LAYERS,
  NEITHER,
  TEST_CODE,
  testCodeGlobs,
  testCodeRegexes,
};
