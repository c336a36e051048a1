// One ESLint config for every workspace. Style is Prettier's job, not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import pluginQuery from "@tanstack/eslint-plugin-query";
import { existsSync, readdirSync } from "node:fs";
import globals from "globals";

// ---------------------------------------------------------------------------------------------
// The layout's rules (docs/decisions/030-layout-lint-rules.md): workspaces import only
// downwards, no relative import climbs out of its workspace, a web feature imports no other
// feature, and only env.ts reads process.env in app code.
//
// ESLint's no-restricted-imports sees the import's text, not the file it resolves to, so a
// relative path is judged by how many "../" it starts with against how deep its file sits:
// one block per folder depth, generated below. A block replaces the options of the same rule
// in an earlier block, so each one carries every restriction for its files.

const SOURCE = "*.{ts,tsx,js,mjs}";
const FEATURES_DIR = new URL("web/src/features/", import.meta.url);
/** Folders below a workspace's root that the generated blocks reach (web is 5 deep today). */
const DEEPEST = 10;

/** Code that only tests load: it may reach further than the app (a real upstream, fixtures). */
const TEST_CODE = [
  "**/*.test.{ts,tsx}",
  "**/test-support/**",
  "**/test-support.ts",
  "**/testing.ts",
  "**/testing/**",
  "web/src/test/**",
];

/** An import text that starts with exactly `count` "../" (a regex source). */
const up = (count) => String.raw`^(\.\.\/){${count}}`;

/** Any @vics package but these (a regex source). */
const vicsExcept = (...allowed) =>
  String.raw`^@vics\/(?!(${allowed.join("|")})(\/|$))`;

const PACKAGES = {
  shared: [
    {
      regex: vicsExcept("shared"),
      message:
        "@vics/shared is the bottom layer: it imports no other workspace.",
    },
  ],
  fleet: [
    {
      regex: vicsExcept("shared"),
      message:
        "@vics/fleet runs in the browser and in Node: it imports only @vics/shared of our workspaces.",
    },
  ],
  service: [
    {
      regex: vicsExcept("shared"),
      message: "The service imports only @vics/shared of our workspaces.",
    },
  ],
  proxy: [
    {
      regex: vicsExcept("shared", "fleet"),
      message:
        "The proxy imports only @vics/shared and @vics/fleet; @vics/service only in its tests, as a real upstream.",
    },
  ],
  proxyTests: [
    {
      regex: vicsExcept("shared", "fleet", "service"),
      message:
        "The proxy's tests import @vics/shared, @vics/fleet and @vics/service (a real upstream), nothing else of ours.",
    },
  ],
  web: [
    {
      regex: vicsExcept("shared", "fleet"),
      message:
        "The web app imports only @vics/shared and @vics/fleet of our workspaces.",
    },
    {
      regex: String.raw`^@vics\/shared\/(node|server)(\/|$)`,
      message:
        "@vics/shared/node and /server are for Node; the web app takes @vics/shared's browser entries.",
    },
  ],
  webApp: [
    {
      regex: String.raw`^@vics\/shared\/testing(\/|$)`,
      message:
        "@vics/shared/testing is for tests: it would ship test code to every browser.",
    },
  ],
};

/** A relative import leaving the workspace, from a file `depth` folders below its root. */
function climbOut(workspace, depth, except) {
  const allowed = except ? `(?!(${except})\\/)` : "";
  return {
    regex: up(depth + 1) + allowed,
    message: `This path climbs out of ${workspace}/. Import another workspace by its package name (@vics/...), through an entry its package.json exports.`,
  };
}

// web/src/features' folders, read when ESLint starts, so a new feature is covered at once.
const FEATURES = existsSync(FEATURES_DIR)
  ? readdirSync(FEATURES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

// Where each web/src folder may reach, for a file `depth` folders below that folder.
const FEATURE_MESSAGE =
  "A feature does not import another feature: what two features share belongs in web/src/lib or web/src/components.";
const WEB_AREAS = [
  ...FEATURES.map((feature) => ({
    dir: `web/src/features/${feature}/`,
    restrictions: (depth) => [
      // ../ (depth + 1 times) is web/src/features/: the next folder is a feature.
      {
        regex: up(depth + 1) + String.raw`(?!${feature}\/)[^./]`,
        message: FEATURE_MESSAGE,
      },
      {
        regex: up(depth + 2) + String.raw`features\/(?!${feature}\/)`,
        message: FEATURE_MESSAGE,
      },
      {
        regex: up(depth + 2) + String.raw`app(\/|$)`,
        message:
          "A feature does not import web/src/app: the app composes the features.",
      },
    ],
  })),
  {
    dir: "web/src/app/",
    restrictions: (depth) => [
      {
        regex: up(depth + 1) + String.raw`features\/[^\/]+\/(?!index\.tsx?$)`,
        message:
          "The app takes a feature through its index.ts, never its internals.",
      },
    ],
  },
  {
    dir: "web/src/{components,lib}/",
    restrictions: (depth) => [
      {
        regex: up(depth + 1) + String.raw`(features|app)(\/|$)`,
        message:
          "web/src/components and web/src/lib serve every feature and import none (nor the app).",
      },
    ],
  },
  {
    dir: "web/src/test/",
    restrictions: (depth) => [
      {
        regex: up(depth + 1) + String.raw`features(\/|$)`,
        message:
          "web/src/test serves every feature's tests and imports no feature (it may render the app).",
      },
    ],
  },
];

/** The rules' options for a list of { regex, message }: static imports and import(). */
function importRules(restrictions) {
  return {
    "no-restricted-imports": ["error", { patterns: restrictions }],
    "no-restricted-syntax": [
      "error",
      ...restrictions.map(({ regex, message }) => ({
        selector: `ImportExpression[source.value=/${regex}/u]`,
        message,
      })),
    ],
  };
}

/**
 * One block for the app code and one for the tests of every folder depth below `dir`, its
 * files `depth + base` folders below the workspace's root.
 */
function layoutBlocks({
  workspace,
  dir,
  base,
  packages,
  testPackages,
  extra,
  except,
}) {
  const blocks = [];
  for (let depth = 0; depth <= DEEPEST - base; depth += 1) {
    const files = `${dir}${"*/".repeat(depth)}${SOURCE}`;
    const relative = [
      climbOut(workspace, depth + base, except),
      ...(extra ? extra(depth) : []),
    ];
    blocks.push(
      {
        name: `vics/layout ${files}`,
        files: [files],
        rules: importRules([...packages, ...relative]),
      },
      {
        name: `vics/layout ${files} (tests)`,
        files: TEST_CODE.map((test) => [files, test]),
        rules: importRules([...testPackages, ...relative]),
      },
    );
  }
  return blocks;
}

const LAYOUT = [
  ...layoutBlocks({
    workspace: "shared",
    dir: "shared/",
    base: 0,
    packages: PACKAGES.shared,
    testPackages: PACKAGES.shared,
  }),
  ...layoutBlocks({
    workspace: "fleet",
    dir: "fleet/",
    base: 0,
    packages: PACKAGES.fleet,
    testPackages: PACKAGES.fleet,
  }),
  ...layoutBlocks({
    workspace: "service",
    dir: "service/",
    base: 0,
    packages: PACKAGES.service,
    testPackages: PACKAGES.service,
  }),
  ...layoutBlocks({
    workspace: "proxy",
    dir: "proxy/",
    base: 0,
    packages: PACKAGES.proxy,
    testPackages: PACKAGES.proxyTests,
  }),
  // e2e may import any workspace, by its package name, and the repository's scripts/.
  ...layoutBlocks({
    workspace: "e2e",
    dir: "e2e/",
    base: 0,
    packages: [],
    testPackages: [],
    except: "scripts",
  }),
  ...layoutBlocks({
    workspace: "web",
    dir: "web/",
    base: 0,
    packages: [...PACKAGES.web, ...PACKAGES.webApp],
    testPackages: PACKAGES.web,
  }),
  // After web's own blocks, which these replace for the files under web/src's folders.
  ...WEB_AREAS.flatMap(({ dir, restrictions }) =>
    layoutBlocks({
      workspace: "web",
      dir,
      base: dir.split("/").length - 2,
      packages: [...PACKAGES.web, ...PACKAGES.webApp],
      testPackages: PACKAGES.web,
      extra: restrictions,
    }),
  ),
  {
    name: "vics/layout process.env only in env.ts",
    files: ["{shared,fleet,service,proxy,web}/src/**/*.{ts,tsx}"],
    ignores: [...TEST_CODE, "*/src/env.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message:
            "Only the workspace's env.ts reads process.env: add the variable to its schema and pass the value in.",
        },
      ],
      "@typescript-eslint/no-restricted-imports": [
        "error",
        ...["process", "node:process"].map((name) => ({
          name,
          importNames: ["env"],
          message: "Only the workspace's env.ts reads the environment.",
        })),
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".tools/**",
      "data/**",
      "**/coverage/**",
      "**/test-results/**",
      "**/playwright-report/**",
      "bench/results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The server kit is Node's (pino, node:crypto, Hono's server parts): a browser bundle
      // that pulled it in would fail at load or carry a logger it cannot use.
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@vics/shared/server", "@vics/shared/server/*"],
              message:
                "@vics/shared/server/* is Node-only (the service's and the proxy's kit); the web app imports @vics/shared.",
            },
          ],
        },
      ],
    },
  },
  { files: ["web/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  ...pluginQuery.configs["flat/recommended"],
  ...LAYOUT,
);
