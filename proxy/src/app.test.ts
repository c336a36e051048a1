import { describe, expect, it } from "vitest";
import { ProblemSchema } from "@vics/shared";
import type { Logger } from "@vics/shared/server/logger";
import { createTestProxy, fakeUpstream } from "./test-support.ts";

describe("an unexpected error", () => {
  it("becomes a 500 problem without internals, logged with the request id", async () => {
    const errors: Array<Record<string, unknown>> = [];
    // The request log is the one place outside a handler that can throw.
    const logger: Logger = {
      debug: () => {},
      info: () => {
        throw new Error("disk full at /var/log/secret-path");
      },
      warn: () => {},
      error: (_message, fields) => errors.push(fields ?? {}),
    };
    const { proxy: app } = createTestProxy({
      fetch: fakeUpstream().fetch,
      logger,
    });
    const response = await app.request("/api/v1/compliance/AB12CDE");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("secret-path");
    const problem = ProblemSchema.parse(JSON.parse(text));
    expect(problem.code).toBe("INTERNAL");
    expect(errors).toEqual([
      expect.objectContaining({
        requestId: problem.requestId,
        error: expect.stringContaining("disk full"),
      }),
    ]);
  });
});
