// The engine in Node, over real HTTP: createHttpFleetClient against a scripted v1 server on
// loopback. What the browser's fleet run does (pace by the headers, wait out a 429, retry a 500,
// one result per registration) holds here too, with no fetch swapped in.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  bulkAnswer,
  isApiError,
  paths,
  problemDocument,
  type ApiError,
  type BulkItem,
  type ProblemCode,
} from "@vics/shared";
import { createFleetRun } from "./engine/fleet-run.ts";
import { createHttpFleetClient } from "./http-fleet-client.ts";
import type { VehicleResult } from "./results.ts";

interface Call {
  method: string;
  path: string;
  key: string | undefined;
  registrations: string[];
}

type Reply = { status: number; body: string; headers?: Record<string, string> };

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise((done) => s.close(done))),
  );
});

/** A v1 server: `script` answers a call, or undefined for "all insured". */
async function upstream(script: (call: Call, n: number) => Reply | undefined) {
  const calls: Call[] = [];
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      const body = text
        ? (JSON.parse(text) as { registrations: string[] })
        : undefined;
      const call: Call = {
        method: request.method ?? "",
        path: request.url ?? "",
        key: request.headers["x-api-key"] as string | undefined,
        registrations: body?.registrations ?? [],
      };
      calls.push(call);
      const reply = script(call, calls.length) ?? insured(call.registrations);
      response.writeHead(reply.status, {
        "Content-Type": "application/json",
        ...reply.headers,
      });
      response.end(reply.body);
    });
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return { calls, baseUrl: `http://127.0.0.1:${port}` };
}

const policy = {
  number: "POL-1",
  insurer: "Northwind Mutual",
  type: "Comprehensive",
  validFrom: "2026-01-01",
  validTo: "2027-01-01",
};

function insured(registrations: string[], remaining = 1000): Reply {
  const items: BulkItem[] = registrations.map((registration) => ({
    registration,
    insured: true,
    policy,
  }));
  return {
    status: 200,
    body: JSON.stringify(bulkAnswer(items)),
    headers: {
      "X-RateLimit-Limit": "1200",
      "X-RateLimit-Remaining": String(remaining),
      "X-RateLimit-Reset": "60",
    },
  };
}

function problem(status: number, code: ProblemCode, headers = {}): Reply {
  const body = problemDocument({
    code,
    status,
    detail: `Detail for ${code}`,
    requestId: "req-1",
  });
  return { status, body: JSON.stringify(body), headers };
}

const plates = (count: number) =>
  Array.from({ length: count }, (_, i) => `AB${String(i).padStart(5, "0")}`);

/** No real waiting: a clock that moves only when the engine sleeps, by what it slept. */
function fakeClock() {
  let time = Date.UTC(2026, 0, 5, 9);
  const slept: number[] = [];
  return {
    slept,
    now: () => time,
    sleep: (ms: number) => {
      slept.push(ms);
      time += Math.max(0, ms);
      // One macrotask, so the loopback server's answers are read meanwhile.
      return new Promise<void>((done) => setImmediate(done));
    },
  };
}

describe("the fleet engine in Node, through createHttpFleetClient", () => {
  it("answers every registration once, in chunks of 1,000, with the key on every request", async () => {
    const { calls, baseUrl } = await upstream(() => undefined);
    const results: VehicleResult[] = [];
    const run = createFleetRun({
      registrations: plates(2500),
      checkCompliance: false,
      client: createHttpFleetClient({
        baseUrl,
        headers: { "X-API-Key": "vics_test_key" },
      }),
      onResults: (batch) => void results.push(...batch),
      onProgress: () => undefined,
    });

    expect(await run.start()).toEqual({ status: "finished" });
    expect(results).toHaveLength(2500);
    expect(new Set(results.map((r) => r.registration)).size).toBe(2500);
    expect(results.every((r) => r.insurance.status === "insured")).toBe(true);
    expect(calls.map((c) => c.registrations.length).sort()).toEqual([
      1000, 1000, 500,
    ]);
    expect(calls.every((c) => c.path === paths.bulkInsurance())).toBe(true);
    expect(calls.every((c) => c.key === "vics_test_key")).toBe(true);
  });

  it("waits out a lone vehicle's 429 for its Retry-After and retries a 500, then answers it", async () => {
    const { calls, baseUrl } = await upstream((_call, n) => {
      if (n === 1) return problem(429, "RATE_LIMITED", { "Retry-After": "7" });
      if (n === 2) return problem(500, "INTERNAL");
      return undefined;
    });
    const clock = fakeClock();
    const results: VehicleResult[] = [];
    const run = createFleetRun({
      registrations: plates(1),
      checkCompliance: false,
      client: createHttpFleetClient({ baseUrl }),
      onResults: (batch) => void results.push(...batch),
      onProgress: () => undefined,
      tuning: { concurrency: 1, ...clock, random: () => 0.5 },
    });

    expect(await run.start()).toEqual({ status: "finished" });
    // (A 429 on a chunk of many is only suspect, decision 029: its halves go at once.)
    expect(calls).toHaveLength(3);
    expect(clock.slept[0]).toBe(7000);
    expect(results.map((r) => r.insurance.status)).toEqual(["insured"]);
  });

  it("marks the rows 'not checked' with words, not a status, when the service never answers well", async () => {
    const { baseUrl } = await upstream(() =>
      problem(503, "SERVICE_UNAVAILABLE"),
    );
    const results: VehicleResult[] = [];
    const run = createFleetRun({
      registrations: plates(3),
      checkCompliance: false,
      client: createHttpFleetClient({ baseUrl }),
      onResults: (batch) => void results.push(...batch),
      onProgress: () => undefined,
      tuning: { maxAttempts: 2, ...fakeClock() },
    });

    await run.start();
    expect(results).toHaveLength(3);
    for (const { insurance } of results) {
      expect(insurance).toEqual({
        status: "not-checked",
        reason: "The vehicle service did not answer after 2 tries",
      });
    }
  });
});

describe("createHttpFleetClient's failures", () => {
  async function failure(reply: Reply | "closed"): Promise<ApiError> {
    let baseUrl: string;
    if (reply === "closed") {
      const closed = await upstream(() => undefined);
      await new Promise((done) => servers.pop()?.close(done));
      baseUrl = closed.baseUrl;
    } else baseUrl = (await upstream(() => reply)).baseUrl;
    const client = createHttpFleetClient({ baseUrl });
    const error: unknown = await client
      .bulkInsurance(["AB12CDE"], new AbortController().signal)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    if (!isApiError(error))
      throw new Error(`not an ApiError: ${String(error)}`);
    return error;
  }

  it("reads a problem document: its code, words, request id and Retry-After", async () => {
    const error = await failure(
      problem(429, "RATE_LIMITED", { "Retry-After": "12" }),
    );
    expect(error).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      detail: "Detail for RATE_LIMITED",
      requestId: "req-1",
      retryAfterSeconds: 12,
    });
  });

  it("names a bare error by its status, an answer outside v1 INVALID_RESPONSE, no server NETWORK", async () => {
    expect((await failure({ status: 502, body: "<html>" })).code).toBe(
      "BAD_GATEWAY",
    );
    expect(
      (await failure({ status: 200, body: JSON.stringify({ results: 1 }) }))
        .code,
    ).toBe("INVALID_RESPONSE");
    expect((await failure("closed")).code).toBe("NETWORK");
  });
});
