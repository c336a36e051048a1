// The connection guard is attached to the real proxy: `node src/index.ts` with a small
// per-address cap, over real sockets from two loopback addresses.
import {
  getFrom,
  idleSockets,
  socketClosed,
} from "@vics/server-kit/testing/idle-sockets";
import { afterEach, describe, expect, it } from "vitest";
import { builtWebRoot } from "./testing/index.ts";
import {
  byMessage,
  PROXY_ENTRY,
  type RunningChild,
  startNode,
} from "./testing/child-processes.ts";

let proxy: RunningChild | undefined;
afterEach(() => {
  proxy?.process.kill("SIGKILL");
});

describe("node src/index.ts with MAX_CONNECTIONS_PER_ADDRESS=3", () => {
  it("closes the idle sockets one address opens over 3, answers another address, and says so in the log", async () => {
    const webRoot = builtWebRoot();
    proxy = startNode(PROXY_ENTRY, {
      HOST: "127.0.0.1",
      PORT: "0",
      // Nothing listens there: the page needs no upstream.
      UPSTREAM_URL: "http://127.0.0.1:9",
      UPSTREAM_API_KEY: "vics_connection_limits_test_key",
      WEB_DIST: webRoot,
      MAX_CONNECTIONS_PER_ADDRESS: "3",
    });
    const url = new URL(
      String((await proxy.waitFor(byMessage("listening"))).url),
    );
    const flood = await idleSockets(Number(url.port), "127.0.0.1", 5);
    await Promise.all(flood.slice(0, 2).map(socketClosed));

    const page = await getFrom(url.href, "127.0.0.2");
    expect(page).toEqual({ status: 200, body: "<!doctype html><p>app</p>" });
    const warning = await proxy.waitFor(
      byMessage("closing connections: connection limits reached"),
    );
    expect(warning).toMatchObject({ level: "warn", maxPerAddress: 3 });
    for (const socket of flood) socket.destroy();

    proxy.process.kill("SIGTERM");
    expect((await proxy.exited).code).toBe(0);
  });
});
