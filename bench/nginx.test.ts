import { describe, expect, it } from "vitest";
import { nginxConfig } from "./nginx.ts";

describe("nginxConfig", () => {
  const config = nginxConfig({
    directory: "/tmp/bench-nginx",
    port: 41000,
    upstreamPort: 42000,
    key: "k".repeat(48),
    workers: 2,
  });

  it("listens on loopback only, with a worker per core", () => {
    expect(config).toContain("listen 127.0.0.1:41000;");
    expect(config).toContain("worker_processes 2;");
  });

  it("injects the key and keeps upstream connections alive", () => {
    expect(config).toMatch(
      /upstream vics_service \{\s*server 127\.0\.0\.1:42000;\s*keepalive 64;/,
    );
    expect(config).toContain(`proxy_set_header X-API-Key "${"k".repeat(48)}";`);
    expect(config).toContain("proxy_http_version 1.1;");
    expect(config).toContain('proxy_set_header Connection "";');
  });

  it("maps /api/v1/... to the service's /v1/..., as the VICS proxy does", () => {
    expect(config).toMatch(
      /location \/api\/ \{\s*proxy_pass http:\/\/vics_service\/;/,
    );
  });

  it("keeps its pid, logs and temp files in its own folder", () => {
    expect(config).toContain("pid /tmp/bench-nginx/nginx.pid;");
    expect(config).toContain("error_log /tmp/bench-nginx/error.log warn;");
    expect(config).toContain("proxy_temp_path /tmp/bench-nginx/proxy_temp;");
  });
});
