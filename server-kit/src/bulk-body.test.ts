import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { BULK_REQUEST_DETAILS, ProblemSchema } from "@vics/shared";
import { memoryLogger } from "./testing/memory-logger.ts";
import { bulkBodyChecks, readBulkBody } from "./bulk-body.ts";
import { errorHandler } from "./error-handlers.ts";
import { ProblemError } from "./problem-error.ts";
import { requestId } from "./request-id.ts";
import type { ServerEnv } from "./server-env.ts";

/** Decision 014's checks on a bare route; the apps' own tests cover them through each app. */
function app() {
  const log = memoryLogger();
  const app = new Hono<ServerEnv>();
  app.use(requestId);
  app.post("/bulk", ...bulkBodyChecks, async (c) =>
    c.json(await readBulkBody(c)),
  );
  app.onError(
    errorHandler({
      logger: log,
      internal: () => new ProblemError(500, "INTERNAL", "Unexpected."),
    }),
  );
  return { app, log };
}

const post = (body: string, headers: Record<string, string> = {}) =>
  app().app.request("/bulk", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);

async function problemOf(response: Response) {
  return ProblemSchema.parse(await response.json());
}

describe("the bulk body checks", () => {
  it("pass on only the registrations of a valid body", async () => {
    const response = await post(
      JSON.stringify({ registrations: ["AB12CDE"], extra: true }),
    );
    expect(await response.json()).toEqual({ registrations: ["AB12CDE"] });
  });

  it("refuse another content type first (400)", async () => {
    const response = await post("x".repeat(100_000), {
      "Content-Type": "text/plain",
    });
    expect(await problemOf(response)).toMatchObject({
      status: 400,
      code: "MALFORMED_REQUEST",
      detail: BULK_REQUEST_DETAILS.contentType,
    });
  });

  it("refuse a body over 64 KiB (413)", async () => {
    const response = await post(" ".repeat(64 * 1024 + 1));
    expect(await problemOf(response)).toMatchObject({
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
      detail: BULK_REQUEST_DETAILS.tooLarge,
    });
  });

  it("refuse a body the schema refuses, in its words (400)", async () => {
    const response = await post(JSON.stringify({ registrations: [] }));
    expect(await problemOf(response)).toMatchObject({
      status: 400,
      detail: BULK_REQUEST_DETAILS.empty,
    });
  });

  it("answer a body that stops arriving as the client's 400, logging no error", async () => {
    const { app: server, log } = app();
    const broken = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"registrations":['));
        controller.error(new Error("connection reset"));
      },
    });
    const response = await server.request("/bulk", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: broken,
      duplex: "half",
    } as RequestInit);
    expect(await problemOf(response)).toMatchObject({
      status: 400,
      detail: BULK_REQUEST_DETAILS.incomplete,
    });
    expect(log.events).toEqual([]);
  });
});
