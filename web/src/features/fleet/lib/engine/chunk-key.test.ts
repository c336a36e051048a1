import { http, HttpResponse } from "msw";
import { PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { server } from "../../../../testing/server.ts";
import { apiFleetClient } from "../../api/fleet-client.ts";
import { chunkKey, keyedByRun } from "./chunk-key.ts";

/** Decision 028: the same chunk of the same run carries the same key, also after a reload. */

describe("chunkKey", () => {
  it("is the same for the same run and registrations, and fits the proxy's pattern", () => {
    const key = chunkKey("run-1", ["AB12CDE", "LP08SED"]);
    expect(chunkKey("run-1", ["AB12CDE", "LP08SED"])).toBe(key);
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
  });

  it("differs for another run, other registrations, or another order", () => {
    const key = chunkKey("run-1", ["AB12CDE", "LP08SED"]);
    expect(chunkKey("run-2", ["AB12CDE", "LP08SED"])).not.toBe(key);
    expect(chunkKey("run-1", ["AB12CDE"])).not.toBe(key);
    expect(chunkKey("run-1", ["LP08SED", "AB12CDE"])).not.toBe(key);
    // The boundary between the run id and the registrations is part of what is hashed.
    expect(chunkKey("run-1A", ["B12CDE"])).not.toBe(
      chunkKey("run-1", ["AB12CDE"]),
    );
  });
});

describe("a run's bulk requests through the web app's client", () => {
  it("carry the chunk's Idempotency-Key, the same for the same chunk sent again", async () => {
    const keys: Array<string | null> = [];
    const answer = (registrations: string[]) =>
      HttpResponse.json({
        results: registrations.map((registration) => ({
          registration,
          insured: false,
        })),
        processed: registrations.length,
        successful: registrations.length,
        failed: 0,
      });
    server.use(
      http.post(
        PROXY_PREFIX + ROUTE_PATTERNS.bulkInsurance,
        async ({ request }) => {
          keys.push(request.headers.get("Idempotency-Key"));
          const body = (await request.json()) as { registrations: string[] };
          return answer(body.registrations);
        },
      ),
    );
    const client = keyedByRun(apiFleetClient, "run-1");
    const signal = new AbortController().signal;

    await client.bulkInsurance(["AB12CDE", "LP08SED"], signal);
    await keyedByRun(apiFleetClient, "run-1").bulkInsurance(
      ["AB12CDE", "LP08SED"],
      signal,
    );

    expect(keys).toEqual([
      chunkKey("run-1", ["AB12CDE", "LP08SED"]),
      chunkKey("run-1", ["AB12CDE", "LP08SED"]),
    ]);
  });
});
