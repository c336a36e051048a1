// deploy/nginx/vics.conf's body limits, with nginx running the rendered site over TLS in front
// of a stand-in proxy replica that reads every body it is given: a saved fleet's list up to the
// app's 24 MB reaches the app (nginx's old 1 MB limit answered nginx's own HTML 413 page); a
// body over nginx's limit is refused by nginx with the app's problem document.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { request } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FLEET_MAX_BODY_BYTES,
  PROBLEM_TITLES,
  ProblemSchema,
  problemType,
} from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import { findNginx, Nginx, upstreamServers } from "./nginx.ts";
import { renderDeploy } from "./render.ts";
import { ensureCertificate } from "./tls.ts";

const root = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "vics-nginx-bodies-"));
// As root, nginx's workers run as "nobody", and keep large bodies in temporary files below.
chmodSync(dir, 0o711);
const MIB = 1024 * 1024;

let nginx: Nginx;
let replica: Server;
let httpsPort: number;
let certificate: string;
/** What the stand-in replica was sent: each request's method, path and body length. */
const received: Array<{ method: string; path: string; bytes: number }> = [];

beforeAll(async () => {
  const binary = findNginx();
  if (!binary)
    throw new Error("nginx is not installed: apt-get install -y nginx");
  // The replica reads every body whole and says how long it was.
  replica = createServer((incoming, outgoing) => {
    let bytes = 0;
    incoming.on("data", (chunk: Buffer) => (bytes += chunk.length));
    incoming.on("end", () => {
      received.push({
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        bytes,
      });
      outgoing.writeHead(201, { "Content-Type": "application/json" });
      outgoing.end(JSON.stringify({ bytes }));
    });
  });
  replica.listen(0, "127.0.0.1");
  await once(replica, "listening");
  const replicaPort = (replica.address() as AddressInfo).port;
  httpsPort = await freePort();
  const tls = ensureCertificate(join(dir, "tls"));
  certificate = readFileSync(tls.certificate, "utf8");
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
    PUBLIC_ORIGIN: `https://127.0.0.1:${httpsPort}`,
    SERVICE_URL: "http://127.0.0.1:9",
    API_KEY_FILE: join(dir, "key"),
    WATCH_API_KEY_FILE: join(dir, "watch-key"),
    SERVER_NAME: "127.0.0.1",
    HTTP_LISTEN: `127.0.0.1:${await freePort()}`,
    HTTPS_LISTEN: `127.0.0.1:${httpsPort}`,
    HTTPS_PORT_SUFFIX: `:${httpsPort}`,
    SERVICE_LISTEN: `127.0.0.1:${await freePort()}`,
    TLS_CERTIFICATE: tls.certificate,
    TLS_CERTIFICATE_KEY: tls.key,
    SERVICE_SERVERS: upstreamServers([9]),
    PROXY_SERVERS: upstreamServers([replicaPort]),
  });
  nginx = new Nginx(binary, join(dir, "nginx"), files["nginx/vics.conf"]);
  await nginx.start();
}, 60_000);

afterAll(async () => {
  await nginx?.stop();
  replica?.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** A request with a body of `bytes` through nginx's https listener, trusting its certificate. */
function send(method: string, path: string, bytes: number) {
  return new Promise<{ status: number; type: string; text: string }>(
    (resolve, reject) => {
      const client = request(
        {
          host: "127.0.0.1",
          port: httpsPort,
          method,
          path,
          ca: certificate,
          headers: {
            "Content-Type": "application/json",
            "Content-Length": String(bytes),
          },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              type: response.headers["content-type"] ?? "",
              text,
            }),
          );
        },
      );
      // nginx may close the connection after its 413, while this still writes.
      client.on("error", reject);
      client.end(Buffer.alloc(bytes, " "));
    },
  );
}

describe("nginx's body limits, per location, above the app's", () => {
  it.each([
    ["POST", "/api/fleets"],
    ["POST", "/api/fleets/7c1a/difference"],
    ["PUT", "/api/fleets/7c1a/vehicles"],
  ])(
    "%s %s: a fleet's list of 20 MB reaches the replica, whose answer comes back",
    async (method, path) => {
      const answer = await send(method, path, 20 * MIB);
      expect(answer).toMatchObject({ status: 201 });
      expect(JSON.parse(answer.text)).toEqual({ bytes: 20 * MIB });
      expect(received.at(-1)).toEqual({ method, path, bytes: 20 * MIB });
    },
    60_000,
  );

  it("passes a list just over the app's 24 MB on, for the app's own 413 in words", async () => {
    const answer = await send("POST", "/api/fleets", FLEET_MAX_BODY_BYTES + 1);
    expect(answer.status).toBe(201);
    expect(received.at(-1)?.bytes).toBe(FLEET_MAX_BODY_BYTES + 1);
  }, 60_000);

  it.each([
    ["a fleet's list well over 24 MB", "POST", "/api/fleets", 26 * MIB],
    ["a sign-in of 256 KB", "POST", "/api/auth/sign-in", 256 * 1024],
    ["a rename of 256 KB", "PATCH", "/api/fleets/7c1a", 256 * 1024],
    [
      "a bulk check of 256 KB",
      "POST",
      "/api/v1/vehicle/bulk-insurance",
      256 * 1024,
    ],
  ])(
    "%s: nginx's 413, as the app's problem document, and nothing reaches the replica",
    async (_name, method, path, bytes) => {
      const before = received.length;
      const answer = await send(method, path, bytes);
      expect(answer.status).toBe(413);
      expect(answer.type).toContain("application/problem+json");
      const problem = ProblemSchema.parse(JSON.parse(answer.text));
      expect(problem).toMatchObject({
        status: 413,
        code: "PAYLOAD_TOO_LARGE",
        type: problemType("PAYLOAD_TOO_LARGE"),
        title: PROBLEM_TITLES.PAYLOAD_TOO_LARGE,
      });
      expect(problem.requestId).toMatch(/^[0-9a-f]{32}$/);
      expect(received.length).toBe(before);
    },
    60_000,
  );
});
