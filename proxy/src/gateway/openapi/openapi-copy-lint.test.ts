import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestService, type TestService } from "@vics/service/testing";
import { lintOpenApi } from "@vics/service/testing/openapi-lint";
import { spectralProblems } from "@vics/shared/testing/spectral-lint";
import { createTestProxy } from "../../testing/index.ts";

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

const lintProblems = (document: string) =>
  lintOpenApi(document, "/proxy/api/v1/openapi.json");

describe("the proxy's copy of the OpenAPI document under Redocly's recommended rules", () => {
  it("has no errors and no warnings (the licence named too)", async () => {
    const document = await proxyCopy();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const problems = await lintProblems(document);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    expect(problems).toEqual([]);
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

describe("the proxy's copy of the OpenAPI document under Spectral's OpenAPI rules (.spectral.yaml)", () => {
  // Spectral bundles its ruleset on the first lint: seconds on a busy machine.
  it("has no errors and no warnings", async () => {
    expect(await spectralProblems(await proxyCopy())).toEqual([]);
  }, 30_000);
});
