import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  REQUEST_ID_HEADER,
} from "@vics/shared";
import { createTestProxy } from "../../testing/index.ts";
import { sendWithFetch } from "./upstream-call.ts";
import { createUpstreamPool } from "./upstream-pool.ts";
import {
  CONTRACT_500,
  FAULTS,
  startFaultUpstream,
  type Fault,
  type FaultUpstream,
} from "../../testing/fault-upstream.ts";

/**
 * Faults: the real proxy app on a real socket, its upstream the fault upstream on
 * another. Every fault, on every forwarded check, must come back as the proxy's own 502 or
 * 504 problem within its time-out, and the proxy must answer normally the moment it clears.
 */

const TIMEOUT_MS = 300;
/** Longer than any answer may take: a request still open then has hung. */
const HANG_MS = TIMEOUT_MS + 5000;

const EXPECTED: Record<Fault, { status: 502 | 504; detail: RegExp }> = {
  refuse: { status: 502, detail: /could not be reached/ },
  "hang-up": { status: 502, detail: /could not be reached/ },
  reset: { status: 502, detail: /could not be reached/ },
  slow: { status: 504, detail: /did not answer in time/ },
  stall: { status: 504, detail: /did not answer in time/ },
  "status-500": { status: 502, detail: /does not understand/ },
  "status-502": { status: 502, detail: /unavailable at the moment/ },
  "status-503": { status: 502, detail: /unavailable at the moment/ },
  "not-json": { status: 502, detail: /does not understand/ },
  "breaks-contract": { status: 502, detail: /does not understand/ },
};

const CHECKS = {
  insurance: { path: "/api/v1/vehicle/AB12CDE/insurance" },
  compliance: { path: "/api/v1/compliance/AB12CDE" },
  "bulk-insurance": { path: "/api/v1/vehicle/bulk-insurance", bulk: true },
  "bulk-compliance": { path: "/api/v1/vehicle/bulk-compliance", bulk: true },
} as const;
type Check = keyof typeof CHECKS;

let upstream: FaultUpstream;
let proxyUrl: string;
let closeProxy: () => Promise<void>;

/** The two ways the proxy can reach its upstream: production's pool, and global fetch. */
const CLIENTS = {
  "the production undici pool": (url: string) => createUpstreamPool(url),
  "global fetch": () => ({
    send: sendWithFetch(globalThis.fetch),
    close: async () => {},
  }),
};

describe.each(Object.keys(CLIENTS) as (keyof typeof CLIENTS)[])(
  "through %s",
  (client) => {
    beforeAll(async () => {
      upstream = await startFaultUpstream({ slowMs: TIMEOUT_MS * 4 });
      const connection = CLIENTS[client](upstream.url);
      const { app } = createTestProxy({
        send: connection.send,
        upstreamUrl: upstream.url,
        timeoutMs: TIMEOUT_MS,
      });
      const server = createAdaptorServer({ fetch: app.fetch });
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      closeProxy = async () => {
        const closed = new Promise((resolve) => server.close(resolve));
        if ("closeAllConnections" in server) server.closeAllConnections();
        await closed;
        await connection.close();
      };
    });

    afterAll(async () => {
      await closeProxy();
      await upstream.close();
    });

    beforeEach(() => upstream.use("answer"));

    /** One check through the proxy, failing (not hanging) if no answer comes within HANG_MS. */
    function check(name: Check): Promise<Response> {
      const { path } = CHECKS[name];
      const signal = AbortSignal.timeout(HANG_MS);
      if (!("bulk" in CHECKS[name])) return fetch(proxyUrl + path, { signal });
      return fetch(proxyUrl + path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          registrations: ["AB12CDE", "UN51NSD", "LP08SED"],
        }),
        signal,
      });
    }

    describe.each(FAULTS)("an upstream that answers with %s", (fault) => {
      it.each(Object.keys(CHECKS) as Check[])(
        "%s: the proxy's own problem in time, then normal service when it clears",
        async (name) => {
          await upstream.use(fault);
          const response = await check(name);
          const { status, detail } = EXPECTED[fault];
          expect(response.status).toBe(status);
          expect(response.headers.get("Content-Type")).toBe(
            PROBLEM_CONTENT_TYPE,
          );
          expect(response.headers.get("Cache-Control")).toBe("no-store");
          const problem = ProblemSchema.parse(await response.json());
          expect(problem).toMatchObject({
            status,
            code: status === 502 ? "BAD_GATEWAY" : "GATEWAY_TIMEOUT",
          });
          expect(problem.detail).toMatch(detail);
          expect(problem.requestId).toBe(
            response.headers.get(REQUEST_ID_HEADER),
          );
          // Nothing left hanging upstream: a stalled or slow answer was dropped by the proxy.
          await expect.poll(() => upstream.openAnswers).toBe(0);

          await upstream.use("answer");
          const recovered = await check(name);
          expect(recovered.status).toBe(200);
          expect(recovered.headers.get("Content-Type")).toMatch(
            /^application\/json/,
          );
        },
      );
    });

    describe("what is not a fault", () => {
      it.each(Object.keys(CHECKS) as Check[])(
        "%s: the service's own 500 problem document passes through (decision 017)",
        async (name) => {
          await upstream.use(CONTRACT_500);
          const response = await check(name);
          expect(response.status).toBe(500);
          const problem = ProblemSchema.parse(await response.json());
          expect(problem.code).toBe("INTERNAL");
        },
      );

      it.each(Object.keys(CHECKS) as Check[])(
        "%s: a slow answer inside the time-out is answered",
        async (name) => {
          upstream.slowMs = TIMEOUT_MS / 6;
          try {
            await upstream.use("slow");
            expect((await check(name)).status).toBe(200);
          } finally {
            upstream.slowMs = TIMEOUT_MS * 4;
          }
        },
      );

      it("faults on some requests leave the others alone: 40 checks at once, every fourth failing", async () => {
        await upstream.use((call) =>
          call.number % 4 === 0
            ? (["reset", "stall", "status-503", "not-json"] as const)[
                (call.number % 16) / 4
              ]!
            : "answer",
        );
        const names = Object.keys(CHECKS) as Check[];
        const first = upstream.calls.length;
        const responses = await Promise.all(
          Array.from({ length: 40 }, (_, index) => check(names[index % 4]!)),
        );
        const byCall = new Map(
          upstream.calls
            .slice(first)
            .map((call) => [call.number, call.behaviour]),
        );
        const statuses = responses.map((response) => response.status);
        expect(statuses.filter((status) => status === 200)).toHaveLength(
          [...byCall.values()].filter((behaviour) => behaviour === "answer")
            .length,
        );
        expect(new Set(statuses)).toEqual(new Set([200, 502, 504]));
        expect(statuses).toHaveLength(40);
      });
    });
  },
);
