import { ProblemSchema, READY_PATH } from "@vics/shared";
import { afterEach, describe, expect, it } from "vitest";
import { createTestService, type TestService } from "../testing/index.ts";
import { call } from "../testing/requests.ts";

let service: TestService | undefined;
afterEach(() => service?.close());

describe("GET /ready", () => {
  it("is 200, without a key, when the database and the limiter answer", async () => {
    service = await createTestService();
    const response = await call(service, READY_PATH);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
  });

  it("is a 503 with Retry-After naming the database when it does not answer", async () => {
    service = await createTestService({
      wrapStore: (store) => ({
        ...store,
        ping: async () => {
          throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
        },
      }),
    });
    const response = await call(service, READY_PATH);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    const problem = ProblemSchema.parse(await response.json());
    expect(problem.code).toBe("SERVICE_UNAVAILABLE");
    expect(problem.detail).toContain("database is not answering");
  });
});
