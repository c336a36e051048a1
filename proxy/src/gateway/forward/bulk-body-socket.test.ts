import { ProblemSchema } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { postUnfinishedBody } from "@vics/server-kit/testing/unfinished-body";
import { describe, expect, it } from "vitest";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

/** The proxy as it runs, on a real socket: the 413 comes back while the browser still sends. */

const serve = loopbackServers();

describe("a chunked bulk body over 64 KiB, on a real socket", () => {
  it("gets the proxy's 413 before the body ends, and nothing goes upstream", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const { port } = await serve(app.fetch);

    const answer = await postUnfinishedBody({
      port,
      path: "/api/v1/vehicle/bulk-insurance",
      headers: { "Content-Type": "application/json" },
    });
    expect(answer).toMatchObject({ status: 413, chunked: true, ended: false });
    expect(ProblemSchema.parse(answer.json).code).toBe("PAYLOAD_TOO_LARGE");
    expect(upstream.requests).toHaveLength(0);
  });
});
