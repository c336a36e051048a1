import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROBLEM_TITLES, ProblemSchema, problemType } from "@vics/shared";
import { DEPENDENCY_RETRY_AFTER_SECONDS } from "@vics/server-kit/dependency-unavailable";
import { Nginx, upstreamServers } from "./nginx.ts";
import {
  httpsSend,
  renderSite,
  requireNginx,
  siteDirectory,
  startSiteNginx,
} from "./site-under-test.ts";

const dir = mkdtempSync(join(tmpdir(), "vics-nginx-site-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("upstreamServers", () => {
  it("lists each replica with passive health checks, a drained one down", () => {
    expect(upstreamServers([3101, 3102], new Set([3102]))).toBe(
      "  server 127.0.0.1:3101 max_fails=1 fail_timeout=2s;\n" +
        "  server 127.0.0.1:3102 max_fails=1 fail_timeout=2s down;",
    );
  });
});

describe("deploy/nginx/vics.conf", () => {
  it("is a configuration nginx accepts, once rendered", () => {
    const binary = requireNginx();
    const files = renderSite(dir);
    const site = readFileSync(files["nginx/vics.conf"], "utf8");
    // Retries for idempotent requests only: `non_idempotent` would send a POST twice.
    // nginx's own 503 (no replica answers) is the API's problem document, with Retry-After.
    const bodies = [...site.matchAll(/return 503 '(.+)';/g)].map((m) => m[1]!);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      const problem = ProblemSchema.parse(
        JSON.parse(body.replace("$request_id", "req-1")),
      );
      expect(problem).toMatchObject({
        status: 503,
        code: "SERVICE_UNAVAILABLE",
        type: problemType("SERVICE_UNAVAILABLE"),
        title: PROBLEM_TITLES.SERVICE_UNAVAILABLE,
      });
    }
    expect(site.match(/add_header Retry-After (\d+) always;/g)).toEqual([
      `add_header Retry-After ${DEPENDENCY_RETRY_AFTER_SECONDS} always;`,
      `add_header Retry-After ${DEPENDENCY_RETRY_AFTER_SECONDS} always;`,
    ]);
    const retries = site.match(/^\s*proxy_next_upstream .*$/gm) ?? [];
    // The proxies' 503 takes a replica out; the services' 503s are answers, passed on
    // (nginx-service-listener.test.ts).
    expect(retries.map((line) => line.trim())).toEqual([
      "proxy_next_upstream error timeout http_502 http_503 http_504;",
      "proxy_next_upstream error timeout http_502 http_504;",
    ]);
    expect(() =>
      new Nginx(binary, join(dir, "nginx"), files["nginx/vics.conf"]).test(),
    ).not.toThrow();
  });
});

describe("nginx's stub_status", () => {
  /** GET over the site's status listener, a socket in its folder (renderSite's). */
  const fromStatusListener = (siteDir: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      get(
        { socketPath: join(siteDir, "nginx-status.sock"), path },
        (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body }),
          );
        },
      ).on("error", reject);
    });

  it("answers on its own listener only: the public site passes /stub_status to the proxies", async () => {
    const siteDir = siteDirectory("vics-nginx-status-");
    const proxied: string[] = [];
    const site = await startSiteNginx(siteDir, (request, response) => {
      proxied.push(request.url ?? "");
      response.writeHead(404).end("the proxy's 404");
    });
    try {
      const status = await fromStatusListener(siteDir, "/stub_status");
      expect(status.status).toBe(200);
      expect(status.body).toMatch(/^Active connections: \d+/);
      expect((await fromStatusListener(siteDir, "/")).status).toBe(404);

      const publicAnswer = await httpsSend(site, "/stub_status");
      expect(publicAnswer.status).toBe(404);
      expect(publicAnswer.body.toString()).toBe("the proxy's 404");
      expect(proxied).toEqual(["/stub_status"]);
    } finally {
      await site.close();
      rmSync(siteDir, { recursive: true, force: true });
    }
  });
});
