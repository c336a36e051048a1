import { describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import {
  AUTH_PATHS,
  BulkResultSchema,
  CLIENT_HEADER,
  InsuranceRecordSchema,
  SessionSchema,
  paths,
  type BulkResult,
  ApiError,
} from "@vics/shared";
import { z } from "zod";
import {
  apiGet,
  apiGetFile,
  apiGetWithRateLimit,
  apiPatch,
  apiPost,
  apiPostWithRateLimit,
  apiSend,
} from "./api-client.ts";
import { onAccessProblem, reportSignedIn } from "./session-events.ts";
import { insuranceRecordSchema } from "./lazy-schemas.ts";
import { getRateLimit } from "./rate-limit-store.ts";
import { server } from "../testing/server.ts";
import {
  insuranceFixture,
  problemFixture,
  ownLimitHeaders,
  rateLimitHeaders,
} from "../testing/fixtures.ts";
import { SIGNED_IN_USER } from "../testing/auth-fixtures.ts";
import { json, serveInsurance } from "../testing/api-handlers.ts";

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the request to fail");
}

const getAb12 = () => apiGet(paths.insurance("AB12CDE"), InsuranceRecordSchema);

describe("apiGet", () => {
  it("calls the proxy under /api and returns the parsed body", async () => {
    let seen: Request | undefined;
    server.use(
      http.get("/api/v1/vehicle/:registration/insurance", ({ request }) => {
        seen = request;
        return HttpResponse.json(insuranceFixture());
      }),
    );
    await expect(getAb12()).resolves.toEqual(insuranceFixture());
    expect(new URL(seen?.url ?? "").pathname).toBe(
      "/api/v1/vehicle/AB12CDE/insurance",
    );
    expect(seen?.headers.get("X-API-Key")).toBeNull();
  });

  it("sends the client header the proxy requires (apiPost's test checks the POST)", async () => {
    let seen: string | null | undefined;
    server.use(
      http.get("/api/v1/vehicle/:registration/insurance", ({ request }) => {
        seen = request.headers.get(CLIENT_HEADER);
        return HttpResponse.json(insuranceFixture());
      }),
    );
    await getAb12();
    expect(seen).toBe("web");
  });

  it("sends a traceparent of its own with each request: a new trace each time, not sampled", async () => {
    const seen: Array<string | null> = [];
    server.use(
      http.get("/api/v1/vehicle/:registration/insurance", ({ request }) => {
        seen.push(request.headers.get("traceparent"));
        return HttpResponse.json(insuranceFixture());
      }),
    );
    await getAb12();
    await getAb12();
    for (const traceparent of seen)
      expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    const traceIds = seen.map((traceparent) => traceparent?.split("-")[1]);
    expect(new Set(traceIds).size).toBe(2);
  });

  it("records the person's own budget (X-Own-*) of a successful response, for the meter", async () => {
    serveInsurance(() =>
      json(insuranceFixture(), 200, {
        ...rateLimitHeaders(5, 10),
        ...ownLimitHeaders(118),
      }),
    );
    await getAb12();
    expect(getRateLimit()).toMatchObject({
      limit: 120,
      remaining: 118,
      resetSeconds: 42,
    });
  });

  it("records the person's own budget of an error response too", async () => {
    serveInsurance(() =>
      json(problemFixture("VEHICLE_NOT_FOUND", 404), 404, ownLimitHeaders(7)),
    );
    await failure(getAb12());
    expect(getRateLimit()?.remaining).toBe(7);
  });

  it("turns a body that fails the schema into INVALID_RESPONSE", async () => {
    serveInsurance(() =>
      json({ ...insuranceFixture(), vehicle: undefined }, 200, {
        "X-Request-Id": "req-bad-body",
      }),
    );
    const error = await failure(getAb12());
    expect(error.code).toBe("INVALID_RESPONSE");
    expect(error.status).toBe(200);
    expect(error.requestId).toBe("req-bad-body");
  });

  it("turns a body that is not JSON into INVALID_RESPONSE", async () => {
    serveInsurance(() => new HttpResponse("<html>", { status: 200 }));
    expect((await failure(getAb12())).code).toBe("INVALID_RESPONSE");
  });

  it("reads a problem document: code, detail and request id", async () => {
    serveInsurance(() =>
      json(problemFixture("VEHICLE_NOT_FOUND", 404, "req-404"), 404),
    );
    const error = await failure(getAb12());
    expect(error).toMatchObject({
      status: 404,
      code: "VEHICLE_NOT_FOUND",
      detail: "Detail for VEHICLE_NOT_FOUND",
      requestId: "req-404",
    });
    expect(error.suggestions).toBeUndefined();
  });

  it("keeps a not-found problem's suggestions, the lookalikes the service holds", async () => {
    serveInsurance(() =>
      json(
        problemFixture("VEHICLE_NOT_FOUND", 404, "req-404", {
          suggestions: ["AB12CDE", "A01"],
        }),
        404,
      ),
    );
    const error = await failure(getAb12());
    expect(error.suggestions).toEqual(["AB12CDE", "A01"]);
  });

  it("keeps whether a 429 came from the person's own limit, for its words", async () => {
    serveInsurance((_, attempt) =>
      json(
        problemFixture(
          "RATE_LIMITED",
          429,
          "req-429",
          attempt === 1 ? { ownLimit: true } : {},
        ),
        429,
      ),
    );
    expect((await failure(getAb12())).ownLimit).toBe(true);
    expect((await failure(getAb12())).ownLimit).toBeUndefined();
  });

  it("reads Retry-After on a 429, falling back to X-RateLimit-Reset", async () => {
    serveInsurance((_, attempt) =>
      json(problemFixture("RATE_LIMITED", 429), 429, {
        ...rateLimitHeaders(0, 10, 17),
        ...(attempt === 1 ? { "Retry-After": "12" } : {}),
      }),
    );
    const first = await failure(getAb12());
    expect(first.retryAfterSeconds).toBe(12);
    expect(first.rateLimit).toEqual({
      limit: 10,
      remaining: 0,
      resetSeconds: 17,
    });
    expect((await failure(getAb12())).retryAfterSeconds).toBe(17);
  });

  it("falls back to the status when an error body is not a problem document", async () => {
    serveInsurance(
      () =>
        new HttpResponse("Bad gateway", {
          status: 502,
          headers: { "X-Request-Id": "req-html" },
        }),
    );
    const error = await failure(getAb12());
    expect(error).toMatchObject({
      status: 502,
      code: "BAD_GATEWAY",
      requestId: "req-html",
    });
  });

  it("reports a network failure as status 0, NETWORK", async () => {
    serveInsurance(() => HttpResponse.error());
    const error = await failure(getAb12());
    expect(error.status).toBe(0);
    expect(error.code).toBe("NETWORK");
  });

  it("lets an abort through as an abort, not an ApiError", async () => {
    serveInsurance(() => json(insuranceFixture()));
    const controller = new AbortController();
    controller.abort();
    await expect(
      apiGet(paths.insurance("AB12CDE"), InsuranceRecordSchema, {
        signal: controller.signal,
      }),
    ).rejects.not.toBeInstanceOf(ApiError);
  });

  it("takes a loader of the schema, loaded while the request is on its way", async () => {
    serveInsurance(() => json(insuranceFixture()));
    const asked: string[] = [];
    const loader = async () => {
      asked.push("schema");
      return InsuranceRecordSchema;
    };
    await expect(apiGet(paths.insurance("AB12CDE"), loader)).resolves.toEqual(
      insuranceFixture(),
    );
    await expect(
      apiGet(paths.insurance("AB12CDE"), insuranceRecordSchema),
    ).resolves.toEqual(insuranceFixture());
    expect(asked).toEqual(["schema"]);
  });

  it("reports a schema that cannot load (the connection went) as NETWORK, to try again", async () => {
    serveInsurance(() => json(insuranceFixture()));
    const error = await failure(
      apiGet(paths.insurance("AB12CDE"), () =>
        Promise.reject(
          new TypeError("Failed to fetch dynamically imported module"),
        ),
      ),
    );
    expect(error).toMatchObject({ status: 0, code: "NETWORK" });
  });
});

describe("apiGetWithRateLimit", () => {
  it("returns the parsed body with the response's rate-limit reading, and records the person's own", async () => {
    serveInsurance(() =>
      json(insuranceFixture(), 200, {
        ...rateLimitHeaders(90),
        ...ownLimitHeaders(95),
      }),
    );
    const answer = await apiGetWithRateLimit(
      paths.insurance("AB12CDE"),
      InsuranceRecordSchema,
    );
    expect(answer).toEqual({
      data: insuranceFixture(),
      rateLimit: { limit: 120, remaining: 90, resetSeconds: 42 },
    });
    expect(getRateLimit()?.remaining).toBe(95);
  });

  it("has no reading when the response carries no rate-limit headers", async () => {
    serveInsurance(() => json(insuranceFixture()));
    const answer = await apiGetWithRateLimit(
      paths.insurance("AB12CDE"),
      InsuranceRecordSchema,
    );
    expect(answer.rateLimit).toBeUndefined();
  });
});

const bulkAnswer: BulkResult = {
  results: [
    { registration: "AB12CDE", insured: false, error: "Vehicle not found" },
  ],
  processed: 1,
  successful: 0,
  failed: 1,
};

function serveBulk(reply: (request: Request) => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  server.use(
    http.post("/api/v1/vehicle/bulk-insurance", async ({ request }) => {
      bodies.push({
        contentType: request.headers.get("Content-Type"),
        apiKey: request.headers.get("X-API-Key"),
        client: request.headers.get(CLIENT_HEADER),
        body: await request.clone().json(),
      });
      return reply(request);
    }),
  );
  return bodies;
}

const postBulk = (signal?: AbortSignal) =>
  apiPost(
    paths.bulkInsurance(),
    { registrations: ["AB12CDE"] },
    BulkResultSchema,
    { signal },
  );

describe("apiPost", () => {
  it("sends the body as JSON to the proxy, without a key, with the client header, and parses the answer", async () => {
    const seen = serveBulk(() => json(bulkAnswer));
    await expect(postBulk()).resolves.toEqual(bulkAnswer);
    expect(seen).toEqual([
      {
        contentType: "application/json",
        apiKey: null,
        client: "web",
        body: { registrations: ["AB12CDE"] },
      },
    ]);
  });

  it("returns the rate-limit reading with the WithRateLimit variant, and records the person's own", async () => {
    serveBulk(() =>
      json(bulkAnswer, 200, {
        ...rateLimitHeaders(3, 10, 20),
        ...ownLimitHeaders(4_000, 50_000, 20),
      }),
    );
    const answer = await apiPostWithRateLimit(
      paths.bulkInsurance(),
      { registrations: ["AB12CDE"] },
      BulkResultSchema,
    );
    expect(answer.rateLimit).toEqual({
      limit: 10,
      remaining: 3,
      resetSeconds: 20,
    });
    expect(getRateLimit()).toMatchObject({ limit: 50_000, remaining: 4_000 });
  });

  it("refuses a bulk answer whose counts do not add up (INVALID_RESPONSE)", async () => {
    serveBulk(() => json({ ...bulkAnswer, processed: 2 }));
    const error = await failure(postBulk());
    expect(error.code).toBe("INVALID_RESPONSE");
  });

  it("reads a 429 as apiGet does: Retry-After and the reading", async () => {
    serveBulk(() =>
      json(problemFixture("RATE_LIMITED", 429), 429, {
        ...rateLimitHeaders(0, 10, 17),
        "Retry-After": "23",
      }),
    );
    const error = await failure(postBulk());
    expect(error).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      retryAfterSeconds: 23,
      rateLimit: { limit: 10, remaining: 0, resetSeconds: 17 },
    });
  });

  it("reports a connection that breaks during the body as NETWORK", async () => {
    serveBulk(() => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"results":['));
          setTimeout(() => controller.error(new Error("reset")), 10);
        },
      });
      // The announced length is longer than what is sent: the reader sees a cut answer.
      return new HttpResponse(body, {
        status: 200,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": "900",
        },
      });
    });
    const error = await failure(postBulk());
    expect(error.code).toBe("NETWORK");
  });

  it("lets an abort through as an abort, not an ApiError", async () => {
    serveBulk(() => json(bulkAnswer));
    const controller = new AbortController();
    controller.abort();
    await expect(postBulk(controller.signal)).rejects.not.toBeInstanceOf(
      ApiError,
    );
  });
});

describe("the proxy's own routes (sign-in, users, audit)", () => {
  it("are reached by their whole path, with the client header", async () => {
    let seen: Request | undefined;
    server.use(
      http.get(AUTH_PATHS.session, ({ request }) => {
        seen = request;
        return HttpResponse.json({
          user: {
            id: "u1",
            email: "a@example.org",
            name: "A",
            role: "staff",
            hasPassword: true,
            hasOidcLink: false,
          },
          expiresAt: "2026-11-24T18:00:00.000Z",
        });
      }),
    );
    const answer = await apiGet(AUTH_PATHS.session, SessionSchema);
    expect(answer.user.role).toBe("staff");
    expect(new URL(seen?.url ?? "").pathname).toBe("/api/auth/session");
    expect(seen?.headers.get(CLIENT_HEADER)).toBe("web");
  });

  it("PATCH sends JSON and parses the answer", async () => {
    const seen: unknown[] = [];
    server.use(
      http.patch(`${AUTH_PATHS.users}/:id`, async ({ request, params }) => {
        seen.push([
          params.id,
          request.headers.get("Content-Type"),
          request.headers.get(CLIENT_HEADER),
          await request.json(),
        ]);
        return HttpResponse.json({ ok: true });
      }),
    );
    await expect(
      apiPatch(
        `${AUTH_PATHS.users}/u1`,
        { role: "fleet" },
        z.object({ ok: z.boolean() }),
      ),
    ).resolves.toEqual({ ok: true });
    expect(seen).toEqual([
      ["u1", "application/json", "web", { role: "fleet" }],
    ]);
  });

  it("a POST with no body sends none at all (the proxy refuses one where none is taken)", async () => {
    const seen: unknown[] = [];
    server.use(
      http.post(AUTH_PATHS.signOutEverywhere, async ({ request }) => {
        seen.push([request.headers.get("Content-Type"), await request.text()]);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await expect(
      apiSend(AUTH_PATHS.signOutEverywhere),
    ).resolves.toBeUndefined();
    expect(seen).toEqual([[null, ""]]);
  });

  it("an answer with nothing to read still fails as a problem", async () => {
    server.use(
      http.post(AUTH_PATHS.changePassword, () =>
        json(
          {
            ...problemFixture("MALFORMED_REQUEST", 400),
            detail: "Too common.",
          },
          400,
        ),
      ),
    );
    const error = await failure(
      apiSend(AUTH_PATHS.changePassword, {
        currentPassword: "a",
        newPassword: "b",
      }),
    );
    expect(error).toMatchObject({
      code: "MALFORMED_REQUEST",
      detail: "Too common.",
    });
  });
});

describe("apiGetFile", () => {
  it("fetches the file with the client header and the type asked for, and gives it as it came", async () => {
    const seen: unknown[] = [];
    server.use(
      http.get(AUTH_PATHS.auditCsv, ({ request }) => {
        seen.push([
          new URL(request.url).search,
          request.headers.get(CLIENT_HEADER),
          request.headers.get("Accept"),
        ]);
        return new HttpResponse("Time (UTC),User\r\n", {
          headers: { "Content-Type": "text/csv; charset=utf-8" },
        });
      }),
    );
    const file = await apiGetFile(
      `${AUTH_PATHS.auditCsv}?user=ann`,
      "text/csv",
    );
    expect(await file.text()).toBe("Time (UTC),User\r\n");
    expect(file.type).toMatch(/^text\/csv/);
    expect(seen).toEqual([["?user=ann", "web", "text/csv"]]);
  });

  it("fails as the others do, and tells the app of a session that ended", async () => {
    const heard: string[] = [];
    const stop = onAccessProblem((problem) => heard.push(problem));
    server.use(
      http.get(AUTH_PATHS.auditCsv, () =>
        json(problemFixture("SIGN_IN_REQUIRED", 401), 401),
      ),
    );
    try {
      const error = await failure(apiGetFile(AUTH_PATHS.auditCsv, "text/csv"));
      expect(error).toMatchObject({ status: 401, code: "SIGN_IN_REQUIRED" });
    } finally {
      stop();
    }
    expect(heard).toEqual(["SIGN_IN_REQUIRED"]);
  });
});

describe("answers about the user, told to the app", () => {
  it("reports a session that ended and a role refused, with the role a path needs", async () => {
    const heard: string[] = [];
    const stop = onAccessProblem((problem) => heard.push(problem));
    server.use(
      http.get(AUTH_PATHS.users, () =>
        json(problemFixture("ROLE_REQUIRED", 403), 403),
      ),
      http.post("/api/v1/vehicle/bulk-insurance", () =>
        json(problemFixture("ROLE_REQUIRED", 403), 403),
      ),
    );
    serveInsurance(() => json(problemFixture("SIGN_IN_REQUIRED", 401), 401));
    try {
      expect(
        (await failure(apiGet(AUTH_PATHS.users, z.unknown()))).neededRole,
      ).toBe("admin");
      expect((await failure(postBulk())).neededRole).toBe("fleet");
      expect((await failure(getAb12())).code).toBe("SIGN_IN_REQUIRED");
    } finally {
      stop();
    }
    expect(heard).toEqual([
      "ROLE_REQUIRED",
      "ROLE_REQUIRED",
      "SIGN_IN_REQUIRED",
    ]);
  });

  it("says nothing of a 401 to a request sent before a sign-in that came while it was answered", async () => {
    const heard: string[] = [];
    const stop = onAccessProblem((problem) => heard.push(problem));
    let sent!: () => void;
    const asked = new Promise<void>((resolve) => (sent = resolve));
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    serveInsurance(async () => {
      sent();
      await held;
      return json(problemFixture("SIGN_IN_REQUIRED", 401), 401);
    });
    try {
      const before = failure(getAb12());
      await asked;
      // Signed in meanwhile (a one-time link, a form): the answer speaks of the old session.
      reportSignedIn(SIGNED_IN_USER);
      answer();
      expect((await before).code).toBe("SIGN_IN_REQUIRED");
      expect(heard).toEqual([]);
      // A request sent after the sign-in, and refused, is news.
      serveInsurance(() => json(problemFixture("SIGN_IN_REQUIRED", 401), 401));
      await failure(getAb12());
    } finally {
      stop();
    }
    expect(heard).toEqual(["SIGN_IN_REQUIRED"]);
  });

  it("says nothing of other refusals", async () => {
    const heard: string[] = [];
    const stop = onAccessProblem((problem) => heard.push(problem));
    serveInsurance(() => json(problemFixture("UNAUTHORIZED", 401), 401));
    await failure(getAb12());
    stop();
    expect(heard).toEqual([]);
  });
});
