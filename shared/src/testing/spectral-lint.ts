// Spectral's lint of an OpenAPI document with the repository's ruleset (.spectral.yaml), as
// `npx spectral lint <document> --ruleset .spectral.yaml` runs it, in memory and offline.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Document, Ruleset, Spectral } from "@stoplight/spectral-core";
import { Json } from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { parse } from "@stoplight/yaml";

/** The repository's ruleset: the one the CLI is given, so the two never differ. */
export const SPECTRAL_RULESET = fileURLToPath(
  new URL("../../../.spectral.yaml", import.meta.url),
);

// The rulesets a ruleset file may extend here. Not Spectral's bundler, which would do the
// same: its types bring the DOM's fetch types into every workspace that imports this file.
const BUILT_IN: Record<string, typeof oas> = { "spectral:oas": oas };

interface RulesetFile {
  extends: string[];
  rules?: Record<string, string>;
}

function loadRuleset(): Ruleset {
  const file = parse(readFileSync(SPECTRAL_RULESET, "utf8")) as RulesetFile;
  return new Ruleset(
    {
      extends: file.extends.map((name) => {
        const ruleset = BUILT_IN[name];
        if (!ruleset) throw new Error(`${SPECTRAL_RULESET}: extends ${name}`);
        return ruleset;
      }),
      rules: file.rules ?? {},
    } as ConstructorParameters<typeof Ruleset>[0],
    { source: SPECTRAL_RULESET },
  );
}

const SEVERITIES = ["error", "warn", "info", "hint"] as const;

/** Every problem Spectral finds in `document` (JSON text), with its rule and where it is. */
export async function spectralProblems(document: string) {
  const spectral = new Spectral();
  spectral.setRuleset(loadRuleset());
  const results = await spectral.run(
    new Document(document, Json, "openapi.json"),
  );
  return results.map((result) => ({
    severity: SEVERITIES[result.severity] ?? String(result.severity),
    rule: String(result.code),
    message: result.message,
    at: result.path.join("."),
  }));
}
