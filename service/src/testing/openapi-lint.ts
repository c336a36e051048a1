/**
 * `@vics/service/testing/openapi-lint`: Redocly's `recommended` ruleset, as `redocly lint`
 * runs it, for the service's OpenAPI document and the proxy's copy of it. All in memory, no
 * network. Apart from `@vics/service/testing` so that only the two lint tests load Redocly.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";

/** `absoluteRef` is where the document is said to come from, as a lint message names it. */
export async function lintOpenApi(document: string, absoluteRef: string) {
  const problems = await lintFromString({
    source: document,
    absoluteRef,
    config: await createConfig({ extends: ["recommended"] }),
  });
  return problems.map((problem) => ({
    severity: problem.severity,
    rule: problem.ruleId,
    message: problem.message,
    at: problem.location.map((location) => location.pointer),
  }));
}
