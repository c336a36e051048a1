// deploy/nginx/vics.conf at its public edge, with nginx running the rendered site over TLS in
// front of a stand-in proxy replica: Mozilla's "intermediate" TLS (no CBC suite, nothing below
// TLS 1.2), one HSTS header of a year, "Server: nginx" without a version, the web app's hashed
// files straight from the build in the Brotli or gzip copy the browser takes, /health and
// /ready answered by the replicas, and HTTP/2 connections kept for 10,000 requests.
import {
  chmodSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest } from "node:http";
import { connect as http2Connect } from "node:http2";
import type { RequestOptions } from "node:https";
import { join } from "node:path";
import {
  connect as tlsConnect,
  getCiphers,
  type SecureVersion,
} from "node:tls";
import {
  brotliCompressSync,
  brotliDecompressSync,
  gunzipSync,
  gzipSync,
} from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  httpsSend,
  siteDirectory,
  startSiteNginx,
  type Answer,
  type SiteUnderTest,
} from "./site-under-test.ts";

// nginx's workers pass through it to the web app's files below, as root.
const dir = siteDirectory("vics-nginx-edge-");
const appDir = join(dir, "app");
const SCRIPT = `console.log(${JSON.stringify("the app ".repeat(500))});`;
const SCRIPT_PATH = "/assets/index-a1b2c3.js";
const STYLE = "body{margin:0}";
const STYLE_PATH = "/assets/index-d4e5f6.css";
const PAGE = "<!doctype html><title>VICS</title>";
/** A file outside the web root that symlinks in web/dist lead to: never sent. */
const SECRET = "vics_the_proxy_key_in_the_data_folder";
const YEAR = "max-age=31536000";

let site: SiteUnderTest;
let httpsPort: number;
let httpPort: number;
let certificate: string;
/** The paths the stand-in replica was asked for. */
const asked: string[] = [];
/** Whether the stand-in replica's store answers: its /ready says so. */
let replicaReady = true;

beforeAll(async () => {
  // The web app's build, with the copies vite-plugin-compression2 writes beside a text file.
  const assets = join(appDir, "web", "dist", "assets");
  mkdirSync(assets, { recursive: true });
  for (const dirPath of [appDir, join(appDir, "web"), join(appDir, "web/dist")])
    chmodSync(dirPath, 0o755);
  writeFileSync(join(assets, "index-a1b2c3.js"), SCRIPT);
  writeFileSync(join(assets, "index-a1b2c3.js.br"), brotliCompressSync(SCRIPT));
  writeFileSync(join(assets, "index-a1b2c3.js.gz"), gzipSync(SCRIPT));
  writeFileSync(join(assets, "index-d4e5f6.css"), STYLE);
  // What a careless deploy leaves in web/dist: links to a file outside it, readable by the
  // workers, as a Brotli copy, a gzip copy and an asset of their own.
  const data = join(dir, "data");
  mkdirSync(data, { mode: 0o755 });
  writeFileSync(join(data, "proxy-api-key"), SECRET, { mode: 0o644 });
  const outside = join(data, "proxy-api-key");
  writeFileSync(join(assets, "linked-gz.js"), SCRIPT);
  writeFileSync(join(assets, "linked-gz.js.br"), brotliCompressSync(SCRIPT));
  symlinkSync(outside, join(assets, "linked-gz.js.gz"));
  writeFileSync(join(assets, "linked-br.js"), SCRIPT);
  symlinkSync(outside, join(assets, "linked-br.js.br"));
  writeFileSync(join(assets, "linked-br.js.gz"), gzipSync(SCRIPT));
  symlinkSync(outside, join(assets, "linked.js"));
  // The stand-in replica answers as the proxy does: its own HSTS header of 180 days on every
  // answer, its page, /health, and /ready while its store answers.
  site = await startSiteNginx(
    dir,
    (incoming, outgoing) => {
      const path = incoming.url ?? "";
      asked.push(path);
      outgoing.setHeader(
        "Strict-Transport-Security",
        "max-age=15552000; includeSubDomains",
      );
      if (path === "/health") {
        outgoing.writeHead(200, { "Content-Type": "application/json" });
        outgoing.end('{"status":"ok"}');
      } else if (path === "/ready") {
        outgoing.writeHead(replicaReady ? 200 : 503, {
          "Content-Type": "application/json",
        });
        outgoing.end(replicaReady ? '{"status":"ready"}' : '{"status":503}');
      } else if (path.startsWith("/assets/")) {
        outgoing.writeHead(404, { "Content-Type": "text/plain" });
        outgoing.end("Not found");
      } else {
        outgoing.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        outgoing.end(PAGE);
      }
    },
    { appDir },
  );
  ({ httpsPort, httpPort, certificate } = site);
}, 60_000);

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** A request over https, trusting the cluster's certificate; the body as sent, undecoded. */
const send = (
  path: string,
  options: Omit<RequestOptions, "host" | "port" | "path" | "ca"> = {},
  body?: Buffer,
) => httpsSend(site, path, options, body);

const all = (answer: Answer, name: string) =>
  answer.raw.filter(([key]) => key === name).map(([, value]) => value);
const one = (answer: Answer, name: string) => {
  const values = all(answer, name);
  expect(values, name).toHaveLength(values.length === 0 ? 0 : 1);
  return values[0];
};

/**
 * A TLS handshake offering only `cipher` (TLS 1.2 names) or only `version`: the suite and
 * version agreed, or the error of the refusal. The client's own security level is 0, so it
 * offers what the server must refuse by itself.
 */
function handshake(options: {
  cipher?: string;
  version?: SecureVersion;
}): Promise<{ cipher: string; version: string } | { refused: string }> {
  const version = options.version ?? "TLSv1.2";
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: "127.0.0.1",
      port: httpsPort,
      servername: "localhost",
      rejectUnauthorized: false,
      minVersion: version,
      maxVersion: version,
      ciphers: `${options.cipher ?? "DEFAULT"}:@SECLEVEL=0`,
    });
    socket.once("secureConnect", () => {
      resolve({
        cipher: socket.getCipher().standardName ?? socket.getCipher().name,
        version: socket.getProtocol() ?? "",
      });
      socket.end();
    });
    socket.once("error", (error: NodeJS.ErrnoException) =>
      resolve({ refused: error.code ?? error.message }),
    );
  });
}

describe("TLS at nginx: Mozilla's intermediate profile", () => {
  it.each([
    "ECDHE-ECDSA-AES128-SHA",
    "ECDHE-ECDSA-AES256-SHA384",
    "AES128-SHA",
  ])("refuses the CBC suite %s", async (cipher) => {
    // The server's alert (OpenSSL 3.5 spells it ERR_SSL_SSL/TLS_..., older ones SSLV3_).
    expect(await handshake({ cipher })).toEqual({
      refused: expect.stringMatching(/_ALERT_HANDSHAKE_FAILURE$/),
    });
  });

  it("offers TLS 1.2 clients exactly the forward-secret AEAD suites of the profile", async () => {
    // Every TLS 1.2 suite this OpenSSL knows, offered one at a time.
    const tls12 = getCiphers()
      .filter((name) => !name.startsWith("tls_"))
      .map((name) => name.toUpperCase());
    expect(tls12.length).toBeGreaterThan(30);
    const accepted: string[] = [];
    for (const cipher of tls12) {
      const answer = await handshake({ cipher });
      if ("cipher" in answer) accepted.push(cipher);
    }
    // The certificate is ECDSA, so the ECDHE-RSA suites of the list have no use here.
    expect(accepted.sort()).toEqual([
      "ECDHE-ECDSA-AES128-GCM-SHA256",
      "ECDHE-ECDSA-AES256-GCM-SHA384",
      "ECDHE-ECDSA-CHACHA20-POLY1305",
    ]);
  }, 60_000);

  it.each(["TLSv1", "TLSv1.1"] as const)("refuses %s", async (version) => {
    expect(await handshake({ version })).toEqual({
      refused: expect.stringMatching(/_ALERT_PROTOCOL_VERSION$/),
    });
  });

  it("speaks TLS 1.3", async () => {
    expect(await handshake({ version: "TLSv1.3" })).toMatchObject({
      version: "TLSv1.3",
    });
  });
});

describe("the headers nginx adds", () => {
  it.each([
    ["the app's page, from a replica", "GET", "/", 200],
    ["a hashed script, from the build", "GET", SCRIPT_PATH, 200],
    [
      "a missing hashed file, from a replica",
      "GET",
      "/assets/index-old.js",
      404,
    ],
    ["/health, from a replica", "GET", "/health", 200],
  ])(
    "%s: one Strict-Transport-Security of a year, and Server without a version",
    async (_name, method, path, status) => {
      const answer = await send(path, { method });
      expect(answer.status).toBe(status);
      expect(all(answer, "strict-transport-security")).toEqual([YEAR]);
      expect(all(answer, "server")).toEqual(["nginx"]);
    },
  );

  it("plain http's redirect: Server without a version", async () => {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const client = httpRequest(
        { host: "127.0.0.1", port: httpPort, path: "/fleet" },
        (response) => {
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              raw: [["server", String(response.headers.server)]],
              body: Buffer.alloc(0),
            }),
          );
        },
      );
      client.on("error", reject);
      client.end();
    });
    expect(answer.status).toBe(308);
    expect(all(answer, "server")).toEqual(["nginx"]);
  });

  it("nginx's own 413: one Strict-Transport-Security of a year", async () => {
    const answer = await send(
      "/api/auth/sign-in",
      { method: "POST", headers: { "Content-Type": "application/json" } },
      Buffer.alloc(256 * 1024, " "),
    );
    expect(answer.status).toBe(413);
    expect(all(answer, "strict-transport-security")).toEqual([YEAR]);
    expect(all(answer, "server")).toEqual(["nginx"]);
  });
});

describe("the web app's hashed files, precompressed, from nginx", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=1, gzip;q=1", "br"],
    ["gzip;q=1, br;q=0.5", "br"],
    ["BR", "br"],
    ["gzip,br", "br"],
    ["br ; q = 0.001", "br"],
    ["br;q=0, gzip", "gzip"],
    ["gzip, br;q=0.000", "gzip"],
    ["brotli, gzip", "gzip"],
    ["gzip, deflate", "gzip"],
    ["br;q=0", undefined],
    ["identity", undefined],
    [undefined, undefined],
  ])(
    "Accept-Encoding %j gets %s, the script's own type, a year's cache and Vary",
    async (accept, encoding) => {
      const before = asked.length;
      const answer = await send(SCRIPT_PATH, {
        headers: accept === undefined ? {} : { "Accept-Encoding": accept },
      });
      expect(answer.status).toBe(200);
      expect(one(answer, "content-encoding")).toBe(encoding);
      expect(one(answer, "vary")).toBe("Accept-Encoding");
      expect(one(answer, "content-type")).toMatch(/javascript/);
      expect(one(answer, "cache-control")).toBe(
        "public, max-age=31536000, immutable",
      );
      expect(one(answer, "x-content-type-options")).toBe("nosniff");
      const text =
        encoding === "br"
          ? brotliDecompressSync(answer.body)
          : encoding === "gzip"
            ? gunzipSync(answer.body)
            : answer.body;
      expect(text.toString()).toBe(SCRIPT);
      if (encoding) expect(answer.body.length).toBeLessThan(SCRIPT.length / 5);
      // nginx sent it from the build: no replica was asked.
      expect(asked.length).toBe(before);
    },
  );

  it("sends a file the build did not compress as it is", async () => {
    const answer = await send(STYLE_PATH, {
      headers: { "Accept-Encoding": "gzip, deflate, br" },
    });
    expect(answer.status).toBe(200);
    expect(one(answer, "content-encoding")).toBeUndefined();
    expect(one(answer, "content-type")).toMatch(/^text\/css/);
    expect(answer.body.toString()).toBe(STYLE);
  });

  it("passes a hashed file the build lacks to a replica, whose 404 it is", async () => {
    const answer = await send("/assets/index-old.js");
    expect(answer.status).toBe(404);
    expect(asked.at(-1)).toBe("/assets/index-old.js");
  });
});

describe("symlinks in the build that lead out of it", () => {
  /** The body once its Content-Encoding is undone. */
  const decoded = (answer: Answer) => {
    const encoding = one(answer, "content-encoding");
    if (encoding === "br") return brotliDecompressSync(answer.body).toString();
    if (encoding === "gzip") return gunzipSync(answer.body).toString();
    return answer.body.toString();
  };

  it.each([
    ["a gzip copy", "/assets/linked-gz.js", "gzip", undefined],
    ["a gzip copy", "/assets/linked-gz.js", "gzip, br", "br"],
    ["a Brotli copy", "/assets/linked-br.js", "br", undefined],
    ["a Brotli copy", "/assets/linked-br.js", "br, gzip", "gzip"],
  ])(
    "%s linked out is never sent: %s with Accept-Encoding %j gets %s",
    async (_name, path, accept, encoding) => {
      const answer = await send(path, {
        headers: { "Accept-Encoding": accept },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).not.toContain(SECRET);
      expect(one(answer, "content-encoding")).toBe(encoding);
      expect(decoded(answer)).toBe(SCRIPT);
    },
  );

  it.each([undefined, "gzip, br"])(
    "an asset linked out is not sent from the build (Accept-Encoding %j): a replica's 404",
    async (accept) => {
      const answer = await send("/assets/linked.js", {
        headers: accept === undefined ? {} : { "Accept-Encoding": accept },
      });
      expect(answer.body.toString()).not.toContain(SECRET);
      expect(answer.status).toBe(404);
      expect(asked.at(-1)).toBe("/assets/linked.js");
    },
  );
});

describe("HTTP/2 connections", () => {
  it("answers 1,500 requests on one connection: none refused at nginx's old 1,000", async () => {
    const session = http2Connect(`https://127.0.0.1:${httpsPort}`, {
      ca: certificate,
    });
    try {
      const statuses = new Map<number, number>();
      for (let at = 0; at < 1500; at++) {
        const status = await new Promise<number>((resolve, reject) => {
          const stream = session.request({ ":path": "/health" });
          let code = 0;
          stream.on(
            "response",
            (headers) => (code = Number(headers[":status"])),
          );
          stream.on("error", reject);
          stream.on("end", () => resolve(code));
          stream.resume();
        });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 200: 1500 });
    } finally {
      session.close();
    }
  }, 60_000);
});

describe("/health and /ready through nginx", () => {
  it("answers /health with the replica's own answer, not the app's page", async () => {
    const answer = await send("/health");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({ status: "ok" });
    expect(asked.at(-1)).toBe("/health");
  });

  // Last: a 503 takes the only replica out of nginx for a moment (max_fails=1).
  it("answers /ready 503 when no replica is ready", async () => {
    expect((await send("/ready")).status).toBe(200);
    replicaReady = false;
    try {
      const answer = await send("/ready");
      expect(answer.status).toBe(503);
    } finally {
      replicaReady = true;
    }
  });
});
