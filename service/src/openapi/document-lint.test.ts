import { describe, expect, it, vi } from "vitest";
import {
  lintOpenApi,
  unacceptedProblems,
} from "../test-support/openapi-lint.ts";
import { call } from "../test-support/requests.ts";
import { freshServices } from "../test-support/services.ts";

const start = freshServices();

const lintProblems = (document: string) =>
  lintOpenApi(document, "/service/v1/openapi.json");

describe("the service's OpenAPI document under Redocly's recommended rules", () => {
  it("has no errors, and no warnings beyond the accepted licence one", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const problems = await lintProblems(await response.text());
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    expect(unacceptedProblems(problems)).toEqual([]);
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
