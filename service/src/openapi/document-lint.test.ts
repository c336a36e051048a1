import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it, vi } from "vitest";
import { call } from "../test-support/requests.ts";
import { freshServices } from "../test-support/services.ts";

const start = freshServices();

// The service is not offered under a licence, so there is none to name (decision 009).
const ACCEPTED_WARNINGS = ["info-license"];

/** Redocly's `recommended` ruleset, as `redocly lint` runs it; all in memory, no network. */
async function lintProblems(document: string) {
  const problems = await lintFromString({
    source: document,
    absoluteRef: "/service/v1/openapi.json",
    config: await createConfig({ extends: ["recommended"] }),
  });
  return problems.map((problem) => ({
    severity: problem.severity,
    rule: problem.ruleId,
    message: problem.message,
    at: problem.location.map((location) => location.pointer),
  }));
}

describe("the service's OpenAPI document under Redocly's recommended rules", () => {
  it("has no errors, and no warnings beyond the accepted licence one", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const problems = await lintProblems(await response.text());
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    const accepted = (problem: (typeof problems)[number]) =>
      problem.severity === "warn" && ACCEPTED_WARNINGS.includes(problem.rule);
    expect(problems.filter((problem) => !accepted(problem))).toEqual([]);
  });

  it("would report a document without servers (the lint is live)", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const document = (await response.json()) as Record<string, unknown>;
    delete document.servers;
    const problems = await lintProblems(JSON.stringify(document));
    expect(problems).toContainEqual(
      expect.objectContaining({ severity: "error", rule: "no-empty-servers" }),
    );
  });
});
