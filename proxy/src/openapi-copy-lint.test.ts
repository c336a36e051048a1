import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestService, type TestService } from "@vics/service/testing";
import { createTestProxy } from "./test-support.ts";

// The service is not offered under a licence, so there is none to name (decision 009).
const ACCEPTED_WARNINGS = ["info-license"];

let service: TestService;

beforeEach(async () => {
  service = await createTestService();
});

afterEach(async () => {
  await service.close();
});

/** The proxy's copy, of the real service's document. */
async function proxyCopy(): Promise<string> {
  const { app } = createTestProxy({
    apiKey: await service.createKey("standard", "proxy"),
    fetch: (input, init) => service.app.fetch(new Request(input, init)),
  });
  const response = await app.request("/api/v1/openapi.json");
  expect(response.status).toBe(200);
  return response.text();
}

/** Redocly's `recommended` ruleset, as `redocly lint` runs it; all in memory, no network. */
async function lintProblems(document: string) {
  const problems = await lintFromString({
    source: document,
    absoluteRef: "/proxy/api/v1/openapi.json",
    config: await createConfig({ extends: ["recommended"] }),
  });
  return problems.map((problem) => ({
    severity: problem.severity,
    rule: problem.ruleId,
    message: problem.message,
    at: problem.location.map((location) => location.pointer),
  }));
}

describe("the proxy's copy of the OpenAPI document under Redocly's recommended rules", () => {
  it("has no errors, and no warnings beyond the accepted licence one", async () => {
    const document = await proxyCopy();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const problems = await lintProblems(document);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    const accepted = (problem: (typeof problems)[number]) =>
      problem.severity === "warn" && ACCEPTED_WARNINGS.includes(problem.rule);
    expect(problems.filter((problem) => !accepted(problem))).toEqual([]);
  });

  it("would report an operation whose security is gone without a root one (the lint is live)", async () => {
    const document = JSON.parse(await proxyCopy()) as Record<string, unknown>;
    delete document.security;
    const problems = await lintProblems(JSON.stringify(document));
    expect(problems).toContainEqual(
      expect.objectContaining({ severity: "error", rule: "security-defined" }),
    );
  });
});
