// One ESLint config for every workspace. Style is Prettier's job, not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import pluginQuery from "@tanstack/eslint-plugin-query";
import globals from "globals";
// The list of what is test code, which .dependency-cruiser.cjs reads too.
import layout from "./layout.cjs";

// The layout's import rules (docs/decisions/030-layout-lint-rules.md) live in
// .dependency-cruiser.cjs, which judges the file an import resolves to; `npm run lint` runs it
// after ESLint. What stays here is not an import rule: only env.ts reads process.env in app code.

/** Code that only tests load: it may read the environment (a real upstream, fixtures). */
const TEST_CODE = layout.testCodeGlobs();

const ENV_ONLY_IN_ENV_TS = [
  {
    name: "vics/layout process.env only in env.ts",
    files: ["{shared,server-kit,fleet,service,proxy,web}/src/**/*.{ts,tsx}"],
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
    // A CommonJS file (the dependency-cruiser config) has no other way to load a module.
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  { files: ["web/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  ...pluginQuery.configs["flat/recommended"],
  ...ENV_ONLY_IN_ENV_TS,
);
