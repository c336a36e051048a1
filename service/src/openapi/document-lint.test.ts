import { describe, expect, it, vi } from "vitest";
import { lintOpenApi } from "../testing/openapi-lint.ts";
import { spectralProblems } from "@vics/shared/testing/spectral-lint";
import { call } from "../testing/requests.ts";
import { freshServices } from "../testing/services.ts";

const start = freshServices();

const lintProblems = (document: string) =>
  lintOpenApi(document, "/service/v1/openapi.json");

describe("the service's OpenAPI document under Redocly's recommended rules", () => {
  it("has no errors and no warnings (the licence named too)", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const problems = await lintProblems(await response.text());
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    expect(problems).toEqual([]);
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

describe("the service's OpenAPI document under Spectral's OpenAPI rules (.spectral.yaml)", () => {
  // Spectral bundles its ruleset on the first lint: seconds on a busy machine.
  it("has no errors and no warnings", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    expect(await spectralProblems(await response.text())).toEqual([]);
  }, 30_000);

  it("would report an operation without tags or a description, and no licence (the lint and the file's own rules are live)", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const document = (await response.json()) as {
      info: Record<string, unknown>;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    // Off in spectral:oas's recommended rules: on in .spectral.yaml.
    delete document.info.license;
    delete document.paths["/v1/data/imports"]!.get!.tags;
    delete document.paths["/v1/data/imports"]!.get!.description;
    const problems = await spectralProblems(JSON.stringify(document));
    expect(problems.map((problem) => problem.rule).sort()).toEqual([
      "info-license",
      "operation-description",
      "operation-tags",
    ]);
  }, 30_000);
});
