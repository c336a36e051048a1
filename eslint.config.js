// One ESLint config for every workspace. Style is Prettier's job, not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import pluginQuery from "@tanstack/eslint-plugin-query";
import globals from "globals";

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
);
