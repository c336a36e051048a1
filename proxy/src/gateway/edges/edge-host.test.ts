import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import {
  CLIENT_HEADER,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
} from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { isOwnAuthority } from "./host-check.ts";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

/**
 * A Host check against DNS rebinding. A page on the attacker's name, resolved to the
 * proxy's address, is same-origin with itself, so neither the client header nor Fetch
 * Metadata stops it; only the Host header it sends (its own name) gives it away.
 */

const API = "/api/v1/compliance/AB12CDE";
const WEB = { [CLIENT_HEADER]: "web" };

async function expectMisdirected(response: Response, address: RegExp) {
  expect(response.status).toBe(421);
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  const problem = ProblemSchema.parse(await response.json());
  expect(problem).toMatchObject({ status: 421, code: "MISDIRECTED_REQUEST" });
  expect(problem.detail).toMatch(address);
}

describe("without PUBLIC_ORIGIN: loopback names only", () => {
  it.each([
    "localhost",
    "localhost:3000",
    "LOCALHOST:3000",
    "127.0.0.1:3000",
    "127.0.0.5",
    "[::1]:3000",
  ])("Host %s: answered", async (host) => {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({ fetch: upstream.fetch });
    const response = await proxy.request(API, {
      headers: { ...WEB, Host: host },
    });
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });

  it.each([
    ["a rebinding name on the proxy's port", "rebind.evil.example:3000"],
    ["a rebinding name", "evil.example"],
    ["a name that starts like loopback", "127.0.0.1.nip.io:3000"],
    ["a name that ends like loopback", "localhost.evil.example"],
    ["a LAN address", "192.168.1.10:3000"],
    ["the any address", "0.0.0.0:3000"],
    ["user info", "evil.example@127.0.0.1:3000"],
    ["a space", "127.0.0.1:3000 evil.example"],
    ["a path", "127.0.0.1:3000/x"],
    ["an empty Host", ""],
  ])("%s (Host %j): 421 on the API, nothing upstream", async (_case, host) => {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({ fetch: upstream.fetch });
    const response = await proxy.request(API, {
      headers: { ...WEB, Host: host },
    });
    await expectMisdirected(response, /localhost or 127\.0\.0\.1/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("421 on the web app's pages too, so a rebinding page never loads the app", async () => {
    const { proxy } = createTestProxy({ fetch: fakeUpstream().fetch });
    const response = await proxy.request("/", {
      headers: { Host: "rebind.evil.example:3000" },
    });
    expect(response.status).toBe(421);
  });
});

describe("with PUBLIC_ORIGIN", () => {
  it.each([
    ["https://vics.example.org", "vics.example.org", true],
    ["https://vics.example.org", "VICS.Example.org", true],
    ["https://vics.example.org", "vics.example.org:443", true],
    ["https://vics.example.org", "vics.example.org:80", false],
    ["https://vics.example.org", "vics.example.org:8443", false],
    ["https://vics.example.org", "127.0.0.1:3000", false],
    ["https://vics.example.org", "localhost", false],
    ["https://vics.example.org", "vics.example.org.evil.example", false],
    ["http://127.0.0.1:3000", "127.0.0.1:3000", true],
    ["http://127.0.0.1:3000", "localhost:3000", false],
    ["http://127.0.0.1:3000", "127.0.0.1:3001", false],
    ["http://127.0.0.1:3000", "127.0.0.1", false],
    ["http://[::1]:3000", "[::1]:3000", true],
  ])("%s: Host %s is its own: %s", (origin, host, own) => {
    expect(isOwnAuthority(host, new URL(origin))).toBe(own);
  });

  it("answers its own host and refuses another with 421 naming the public origin", async () => {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({
      fetch: upstream.fetch,
      publicOrigin: "https://vics.example.org",
    });
    const own = await proxy.request(`https://vics.example.org${API}`, {
      headers: WEB,
    });
    expect(own.status).toBe(200);
    await expectMisdirected(
      await proxy.request(`https://vics.example.org${API}`, {
        headers: { ...WEB, Host: "rebind.evil.example" },
      }),
      /Open VICS at https:\/\/vics\.example\.org\./,
    );
    // A request for loopback is not for the public origin either.
    expect((await proxy.request(API, { headers: WEB })).status).toBe(421);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("on a real socket", () => {
  const serve = loopbackServers();

  async function listening() {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({ fetch: upstream.fetch });
    return { port: (await serve(proxy.fetch)).port, upstream };
  }

  /** One raw request: `path` may be absolute-form, `host` is sent as it is. */
  function send(port: number, path: string, host: string) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        { host: "127.0.0.1", port, path, headers: { ...WEB, Host: host } },
        (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body }),
          );
        },
      );
      request.on("error", reject);
      request.end();
    });
  }

  it("a browser's request for a rebinding name on the proxy's own port: 421, nothing upstream", async () => {
    const { port, upstream } = await listening();
    const rebound = await send(port, API, `rebind.evil.example:${port}`);
    expect(rebound.status).toBe(421);
    expect(ProblemSchema.parse(JSON.parse(rebound.body)).code).toBe(
      "MISDIRECTED_REQUEST",
    );
    const own = await send(port, API, `127.0.0.1:${port}`);
    expect(own.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });

  it("an absolute-form target naming another host, with a loopback Host header: 421", async () => {
    const { port, upstream } = await listening();
    const response = await send(
      port,
      `http://rebind.evil.example:${port}${API}`,
      `127.0.0.1:${port}`,
    );
    expect(response.status).toBe(421);
    expect(upstream.requests).toHaveLength(0);
  });
});
