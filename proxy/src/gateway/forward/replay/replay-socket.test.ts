import { request } from "node:http";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { describe, expect, it, vi } from "vitest";
import {
  contractAnswer,
  createTestProxy,
  fakeUpstream,
} from "../../../testing/index.ts";

/** The proxy as it runs, on a real socket: a browser that goes (a reload) mid-request. */

const serve = loopbackServers();

const BODY = JSON.stringify({ registrations: ["AB12CDE", "LP08SED"] });
const HEADERS = {
  "Content-Type": "application/json",
  "Idempotency-Key": "run-7_chunk-0123456789",
};

describe("a browser that hangs up while its bulk request is with the service", () => {
  it("the service's answer is still kept, and the same request sent again is answered from it", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered = 0;
    const upstream = fakeUpstream(async (request) => {
      await held;
      answered++;
      return contractAnswer(request);
    });
    const { app, log } = createTestProxy({ fetch: upstream.fetch });
    const { port } = await serve(app.fetch);

    const client = request({
      host: "127.0.0.1",
      port,
      path: "/api/v1/vehicle/bulk-insurance",
      method: "POST",
      headers: HEADERS,
    });
    client.on("error", () => {}); // destroyed on purpose
    client.end(BODY);
    await vi.waitFor(() => expect(upstream.requests).toHaveLength(1));
    const closed = new Promise((resolve) => client.on("close", resolve));
    client.destroy();
    await closed;
    release();
    // The first request's access line: the proxy has finished with it.
    await vi.waitFor(() =>
      expect(log.entries.filter((e) => e.message === "request")).toHaveLength(
        1,
      ),
    );
    expect(answered).toBe(1);

    const again = await fetch(
      `http://127.0.0.1:${port}/api/v1/vehicle/bulk-insurance`,
      { method: "POST", headers: HEADERS, body: BODY },
    );
    expect(again.status).toBe(200);
    expect(again.headers.get("X-VICS-Replayed")).toBe("true");
    expect(upstream.requests).toHaveLength(1);
  });
});
