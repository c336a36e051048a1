import { CLIENT_HEADER, ComplianceRecordSchema } from "@vics/shared";
import { getFrom } from "@vics/server-kit/testing/idle-sockets";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { createTestService } from "@vics/service/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createTestProxy } from "../../testing/index.ts";
import { createUpstreamPool } from "../upstream/upstream-pool.ts";

/**
 * The browser's Accept never goes upstream: a header that fits the proxy's 16 KiB limit
 * pushed the service's request, which carries the key and the request id as well, over the
 * service's own limit (431), and the browser got a 502. Both on real sockets, as they run.
 */

const cleanups: Array<() => Promise<unknown> | unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const serve = loopbackServers();

/** The app's base URL on a real socket, under the servers' own time limits. */
async function listen(fetch: Parameters<typeof serve>[0]) {
  return (await serve(fetch, { requestTimeoutMs: 30_000 })).base;
}

describe("the Accept header the proxy sends upstream", () => {
  it("is its own: a 16 KB Accept through the proxy to the real service is a 200", async () => {
    const service = await createTestService();
    cleanups.push(() => service.close());
    const serviceUrl = await listen(service.app.fetch);
    const upstream = createUpstreamPool(serviceUrl);
    cleanups.push(() => upstream.close());
    const { proxy } = createTestProxy({
      send: upstream.send,
      upstreamUrl: serviceUrl,
      apiKey: await service.createKey("internal"),
    });
    const proxyUrl = await listen(proxy.fetch);

    // Just under the proxy's limit with the few headers a client sends besides: 16,250 to
    // 16,280 bytes got the 502 (from 16,300 the proxy itself answers 431).
    const ranges = "text/x-long;q=0.1, ".repeat(900);
    const accept = `application/json, ${ranges}`.slice(0, 16_270);
    const answer = await getFrom(
      `${proxyUrl}/api/v1/compliance/AB12CDE`,
      "127.0.0.1",
      {
        Accept: accept,
        [CLIENT_HEADER]: "web",
      },
    );
    expect(answer.status).toBe(200);
    expect(
      ComplianceRecordSchema.parse(JSON.parse(answer.body)).registration,
    ).toBe("AB12CDE");
  });
});
