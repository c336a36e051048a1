import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROBLEM_TITLES, ProblemSchema, problemType } from "@vics/shared";
import { DEPENDENCY_RETRY_AFTER_SECONDS } from "@vics/shared/server/dependency-unavailable";
import { findNginx, Nginx, upstreamServers } from "./nginx.ts";
import { renderDeploy } from "./render.ts";
import { ensureCertificate } from "./tls.ts";

const root = join(import.meta.dirname, "../..");
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
    const binary = findNginx();
    if (!binary)
      throw new Error("nginx is not installed: apt-get install -y nginx");
    const tls = ensureCertificate(join(dir, "tls"));
    const files = renderDeploy(join(root, "deploy"), join(dir, "etc"), {
      APP_DIR: root,
      ETC_DIR: join(dir, "etc"),
      NODE: process.execPath,
      SERVICE_DATABASE_URL: "postgres://s@127.0.0.1/s",
      SEED_SYNTHETIC_FLEET: "true",
      PROXY_DATABASE_URL: "postgres://p@127.0.0.1/p",
      PROXY_MIGRATION_DATABASE_URL: "postgres://o@127.0.0.1/p",
      RATE_LIMIT_URL: "redis://127.0.0.1:6379",
      TRUSTED_PROXIES: "127.0.0.1",
      LOG_HASH_KEY: "x".repeat(32),
      PUBLIC_ORIGIN: "https://127.0.0.1:8443",
      SERVICE_URL: "http://127.0.0.1:3100",
      API_KEY_FILE: join(dir, "key"),
      WATCH_API_KEY_FILE: join(dir, "watch-key"),
      SERVER_NAME: "localhost",
      HTTP_LISTEN: "127.0.0.1:8080",
      HTTPS_LISTEN: "127.0.0.1:8443",
      HTTPS_PORT_SUFFIX: ":8443",
      SERVICE_LISTEN: "127.0.0.1:3100",
      TLS_CERTIFICATE: tls.certificate,
      TLS_CERTIFICATE_KEY: tls.key,
      SERVICE_SERVERS: upstreamServers([3101, 3102, 3103]),
      PROXY_SERVERS: upstreamServers([3201, 3202]),
    });
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
    expect(retries).toHaveLength(2);
    for (const line of retries) expect(line).not.toContain("non_idempotent");
    expect(() =>
      new Nginx(binary, join(dir, "nginx"), files["nginx/vics.conf"]).test(),
    ).not.toThrow();
  });
});
