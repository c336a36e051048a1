// The rendered deploy/nginx/vics.conf under test, for the nginx tests: renderSite renders the
// deploy files with placeholder values (a test overrides what it needs: ports, APP_DIR), and
// startSiteNginx runs the site over TLS in front of one stand-in proxy replica, on free ports.
// httpsSend makes a request there, trusting the cluster's certificate.
import { once } from "node:events";
import { chmodSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { request, type RequestOptions } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";
import { findNginx, Nginx, upstreamServers } from "./nginx.ts";
import { renderDeploy, type DeployFile } from "./render.ts";
import { ensureCertificate } from "./tls.ts";

/** The repository's root: its deploy/ and, unless a test says otherwise, APP_DIR. */
export const ROOT = join(import.meta.dirname, "../..");

/** The nginx binary, or an error saying how to install it. */
export function requireNginx(): string {
  const binary = findNginx();
  if (!binary)
    throw new Error("nginx is not installed: apt-get install -y nginx");
  return binary;
}

/**
 * A temporary folder for a site: as root, nginx's workers run as "nobody", and pass through it
 * (to the web app's files, to large bodies kept in temporary files below).
 */
export function siteDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  return dir;
}

/**
 * Renders every deploy/ file into `dir`/etc, with a certificate made in `dir`/tls and
 * placeholder values (fixed ports that nothing listens on) that `overrides` replace.
 */
export function renderSite(
  dir: string,
  overrides: Readonly<Record<string, string>> = {},
): Record<DeployFile, string> {
  const tls = ensureCertificate(join(dir, "tls"));
  return renderDeploy(join(ROOT, "deploy"), join(dir, "etc"), {
    APP_DIR: ROOT,
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
    // A socket in `dir`, not a port: each test's nginx has its own without asking for a port.
    NGINX_STATUS_LISTEN: `unix:${join(dir, "nginx-status.sock")}`,
    NGINX_EXPORTER_LISTEN: "127.0.0.1:9113",
    SCRAPE_INTERVAL: "15s",
    ALERT_RULES_FILE: join(ROOT, "deploy/prometheus/alerts.yml"),
    SERVICE_METRICS_PORTS: "3101:9101 3102:9102 3103:9103",
    PROXY_METRICS_PORTS: "3201:9201 3202:9202",
    ...overrides,
  });
}

export interface SiteUnderTest {
  nginx: Nginx;
  httpsPort: number;
  httpPort: number;
  /** The cluster's certificate (PEM), for a client to trust. */
  certificate: string;
  /** Stops nginx and the stand-in replica. */
  close(): Promise<void>;
}

/**
 * nginx running the rendered site from `dir` on free loopback ports, in front of one stand-in
 * proxy replica that `handler` answers for (the service's upstream is a port nothing answers).
 */
export async function startSiteNginx(
  dir: string,
  handler: RequestListener,
  options: { appDir?: string } = {},
): Promise<SiteUnderTest> {
  const binary = requireNginx();
  const replica = createServer(handler);
  replica.listen(0, "127.0.0.1");
  await once(replica, "listening");
  let nginx: Nginx | undefined;
  const close = async () => {
    await nginx?.stop();
    replica.close();
  };
  try {
    const replicaPort = (replica.address() as AddressInfo).port;
    const httpsPort = await freePort();
    const httpPort = await freePort();
    const files = renderSite(dir, {
      APP_DIR: options.appDir ?? ROOT,
      PUBLIC_ORIGIN: `https://127.0.0.1:${httpsPort}`,
      SERVICE_URL: "http://127.0.0.1:9",
      SERVER_NAME: "127.0.0.1",
      HTTP_LISTEN: `127.0.0.1:${httpPort}`,
      HTTPS_LISTEN: `127.0.0.1:${httpsPort}`,
      HTTPS_PORT_SUFFIX: `:${httpsPort}`,
      SERVICE_LISTEN: `127.0.0.1:${await freePort()}`,
      SERVICE_SERVERS: upstreamServers([9]),
      PROXY_SERVERS: upstreamServers([replicaPort]),
    });
    const certificate = readFileSync(
      ensureCertificate(join(dir, "tls")).certificate,
      "utf8",
    );
    nginx = new Nginx(binary, join(dir, "nginx"), files["nginx/vics.conf"]);
    await nginx.start();
    return { nginx, httpsPort, httpPort, certificate, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface Answer {
  status: number;
  /** Each header as nginx sent it, lower-case names, in order: repeats stay repeats. */
  raw: Array<[string, string]>;
  body: Buffer;
}

/** A request over https to the site, trusting its certificate; the body as sent, undecoded. */
export function httpsSend(
  site: Pick<SiteUnderTest, "httpsPort" | "certificate">,
  path: string,
  options: Omit<RequestOptions, "host" | "port" | "path" | "ca"> = {},
  body?: Buffer,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const client = request(
      {
        host: "127.0.0.1",
        port: site.httpsPort,
        path,
        ca: site.certificate,
        ...options,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw: Array<[string, string]> = [];
          for (let at = 0; at < response.rawHeaders.length; at += 2)
            raw.push([
              response.rawHeaders[at]!.toLowerCase(),
              response.rawHeaders[at + 1]!,
            ]);
          resolve({
            status: response.statusCode ?? 0,
            raw,
            body: Buffer.concat(chunks),
          });
        });
      },
    );
    // nginx may close the connection after its own answer (a 413), while this still writes.
    client.on("error", reject);
    client.end(body);
  });
}
