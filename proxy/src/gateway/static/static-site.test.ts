import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  brotliCompressSync,
  brotliDecompressSync,
  gunzipSync,
  gzipSync,
} from "node:zlib";
import { describe, expect, it } from "vitest";
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from "@vics/shared";
import {
  builtWebRoot,
  createTestProxy,
  emptyWebRoot,
  fakeUpstream,
} from "../../testing/index.ts";

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-a1b2c3.js"></script></head><body><div id="root"></div></body></html>';

const webApp = () =>
  builtWebRoot({
    "index.html": INDEX_HTML,
    "assets/index-a1b2c3.js": "console.log('app')",
    "assets/index-d4e5f6.css": "body{margin:0}",
    "favicon.svg": "<svg></svg>",
  });

/** A script long enough that its Brotli and gzip copies are smaller than it. */
const SCRIPT = `console.log(${JSON.stringify("app ".repeat(200))})`;

/** Writes Brotli and gzip copies of each of `files` (relative to `root`) beside it, as Vite does. */
function withCompressedCopies(root: string, files: string[]): string {
  for (const file of files) {
    const text = readFileSync(join(root, file));
    writeFileSync(join(root, `${file}.br`), brotliCompressSync(text));
    writeFileSync(join(root, `${file}.gz`), gzipSync(text));
  }
  return root;
}

/** The body as the client would read it once it undoes the Content-Encoding. */
function decoded(bytes: Buffer, encoding: string | null): string {
  if (encoding === "br") return brotliDecompressSync(bytes).toString();
  if (encoding === "gzip") return gunzipSync(bytes).toString();
  expect(encoding).toBeNull();
  return bytes.toString();
}

function proxyServing(webRoot: string) {
  const upstream = fakeUpstream();
  const { app } = createTestProxy({ fetch: upstream.fetch, webRoot });
  return { app, upstream };
}

describe("the built web app", () => {
  it("serves index.html at / with no-cache and the security headers", async () => {
    const { app } = proxyServing(webApp());
    const response = await app.request("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
    expect(await response.text()).toBe(INDEX_HTML);
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // Workers: the app's own, and the blob: ones the XLSX unzipper makes (decision 016).
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
  });

  it.each([
    ["/assets/index-a1b2c3.js", /javascript/],
    ["/assets/index-d4e5f6.css", /^text\/css/],
  ])("serves hashed %s as long-lived and immutable", async (path, type) => {
    const { app } = proxyServing(webApp());
    const response = await app.request(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(type);
    expect(response.headers.get("Cache-Control")).toBe(
      "public, max-age=31536000, immutable",
    );
  });

  it("serves other files but lets the browser revalidate them", async () => {
    const { app } = proxyServing(webApp());
    const response = await app.request("/favicon.svg");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
  });

  it.each([
    "/vehicle/AB12CDE",
    "/compliance/AB12CDE",
    "/compliance",
    "/vehicle/AB12%20CDE",
    "/some/unknown/page",
  ])("answers the deep link %s with index.html", async (path) => {
    const { app, upstream } = proxyServing(webApp());
    const response = await app.request(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
    expect(await response.text()).toBe(INDEX_HTML);
    expect(upstream.requests).toHaveLength(0);
  });

  it("does not answer a missing hashed asset with HTML", async () => {
    const { app } = proxyServing(webApp());
    const response = await app.request("/assets/index-old999.js");
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).not.toMatch(/html/);
  });

  it("never serves files outside the web root", async () => {
    const { app } = proxyServing(webApp());
    const response = await app.request("/..%2F..%2Fetc%2Fpasswd");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not found");
  });

  it.each([
    ["GET", "/api/v1/unknown"],
    ["GET", "/api/"],
    ["GET", "/v1"],
    ["GET", "/v1/"],
    ["GET", "/v1/openapi.json"],
    ["GET", "/v1/vehicle/AB12CDE/insurance"],
    ["GET", "/v1/compliance/AB12CDE"],
    ["GET", "/V1/compliance/AB12CDE"],
    ["GET", "/API/v1/compliance/AB12CDE"],
    ["GET", "/v1/compliance/AB12CDE?format=html"],
    ["POST", "/v1/vehicle/bulk-insurance"],
    ["OPTIONS", "/v1/compliance/AB12CDE"],
  ])(
    "%s %s is a 404 problem saying where the API is, never the app's HTML",
    async (method, path) => {
      const { app, upstream } = proxyServing(webApp());
      const response = await app.request(path, {
        method,
        headers: { Accept: "text/html" },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
      const problem = ProblemSchema.parse(await response.json());
      expect(problem.code).toBe("NOT_FOUND");
      expect(problem.detail).toContain("/api/v1/openapi.json");
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("answers HEAD under /v1 with the 404 problem's headers, not the app's", async () => {
    const { app } = proxyServing(webApp());
    const response = await app.request("/v1/compliance/AB12CDE", {
      method: "HEAD",
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  });

  it.each(["/fleet", "/vehicle", "/apiary", "/v1beta/notes"])(
    "still answers %s, which only looks like an API path, with the app",
    async (path) => {
      const { app } = proxyServing(webApp());
      const response = await app.request(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(INDEX_HTML);
    },
  );
});

describe("precompressed files, as the build writes them beside each text file", () => {
  /** The web app with Brotli and gzip copies of index.html and the script, as Vite writes. */
  function compressedWebApp(): string {
    const root = builtWebRoot({
      "index.html": INDEX_HTML,
      "assets/index-a1b2c3.js": SCRIPT,
      "assets/index-d4e5f6.css": "body{margin:0}",
      "robots.txt": "User-agent: *\nDisallow: /\n",
    });
    return withCompressedCopies(root, ["index.html", "assets/index-a1b2c3.js"]);
  }

  const ENCODINGS: Array<[string | undefined, string | null]> = [
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0.9, gzip", "gzip"],
    ["gzip", "gzip"],
    ["identity", null],
    ["deflate", null],
    [undefined, null],
  ];

  describe.each([
    ["a hashed script", "/assets/index-a1b2c3.js", SCRIPT, /^text\/javascript/],
    ["index.html", "/", INDEX_HTML, /^text\/html/],
    ["a deep link", "/vehicle/AB12CDE", INDEX_HTML, /^text\/html/],
  ])("%s (%s)", (_name, path, text, type) => {
    const cache = path.startsWith("/assets/")
      ? "public, max-age=31536000, immutable"
      : "no-cache";

    it.each(ENCODINGS)(
      "Accept-Encoding %j gets %s, its own Content-Type and cache headers, and Vary",
      async (accept, encoding) => {
        const { app } = proxyServing(compressedWebApp());
        const response = await app.request(path, {
          headers: accept === undefined ? {} : { "Accept-Encoding": accept },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Encoding")).toBe(encoding);
        expect(response.headers.get("Vary")).toBe("Accept-Encoding");
        expect(response.headers.get("Content-Type")).toMatch(type);
        expect(response.headers.get("Cache-Control")).toBe(cache);
        const bytes = Number(response.headers.get("Content-Length"));
        const body = decoded(
          Buffer.from(await response.clone().arrayBuffer()),
          response.headers.get("Content-Encoding"),
        );
        expect(body).toBe(text);
        expect(bytes).toBe((await response.arrayBuffer()).byteLength);
        if (encoding !== null) expect(bytes).toBeLessThan(text.length);
      },
    );

    it.each(ENCODINGS)(
      "HEAD with Accept-Encoding %j: the headers of the GET, no body",
      async (accept, encoding) => {
        const { app } = proxyServing(compressedWebApp());
        const headers =
          accept === undefined ? {} : { "Accept-Encoding": accept };
        const get = await app.request(path, { headers });
        const head = await app.request(path, { method: "HEAD", headers });
        expect(head.status).toBe(200);
        for (const name of [
          "Content-Encoding",
          "Content-Length",
          "Content-Type",
          "Cache-Control",
          "Vary",
        ])
          expect(head.headers.get(name)).toBe(get.headers.get(name));
        expect(head.headers.get("Content-Encoding")).toBe(encoding);
        expect((await head.arrayBuffer()).byteLength).toBe(0);
      },
    );
  });

  it("sends a file the build did not compress as it is, without Vary", async () => {
    const { app } = proxyServing(compressedWebApp());
    const response = await app.request("/assets/index-d4e5f6.css", {
      headers: { "Accept-Encoding": "br, gzip" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(response.headers.get("Vary")).toBeNull();
    expect(await response.text()).toBe("body{margin:0}");
  });
});

describe("paths that name a file", () => {
  it("answers /robots.txt from the build as text/plain, not the app's HTML", async () => {
    const { app } = proxyServing(
      builtWebRoot({
        "index.html": INDEX_HTML,
        "robots.txt": "User-agent: *\nDisallow: /\n",
      }),
    );
    const response = await app.request("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("User-agent: *\nDisallow: /\n");
  });

  it.each([
    "/favicon.ico",
    "/wp-login.php",
    "/admin/config.php",
    "/sitemap.xml",
    "/apple-touch-icon.png",
    "/vehicle/AB12CDE.json",
    "/robots.txt",
  ])(
    "answers %s, which the build lacks, with a 404, not the app",
    async (path) => {
      const { app } = proxyServing(webApp());
      for (const method of ["GET", "HEAD"]) {
        const response = await app.request(path, { method });
        expect(response.status).toBe(404);
        expect(response.headers.get("Content-Type")).not.toMatch(/html/);
        expect(await response.text()).not.toBe(INDEX_HTML);
      }
    },
  );
});

describe("what the web root must not give away", () => {
  const SECRET = "vics_the_proxy_key_in_the_data_folder";

  /**
   * A built web root with what a careless deploy leaves in it: dotfiles, and symlinks to the
   * data folder (where the proxy's key file lives) and to a file beside it. One symlink stays
   * inside the web root, and is served.
   */
  function carelessWebRoot(): string {
    const root = webApp();
    writeFileSync(join(root, ".env"), `UPSTREAM_API_KEY=${SECRET}`);
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".git", "config"), `[secret] key = ${SECRET}`);
    writeFileSync(join(root, "assets", ".hidden.js"), SECRET);
    const data = mkdtempSync(join(tmpdir(), "vics-data-"));
    writeFileSync(join(data, "proxy-api-key"), SECRET);
    writeFileSync(join(data, "index.html"), SECRET);
    symlinkSync(data, join(root, "data"));
    symlinkSync(join(data, "proxy-api-key"), join(root, "key.txt"));
    symlinkSync(join(root, "favicon.svg"), join(root, "icon.svg"));
    return root;
  }

  it.each([
    "/.env",
    "/.git/config",
    "/assets/.hidden.js",
    "/%2eenv",
    "/%2Egit/config",
    "/%252eenv",
    "/.git%2Fconfig",
    "/assets/%2ehidden.js",
    "/data/proxy-api-key",
    "/data/",
    "/data",
    "/key.txt",
  ])("refuses %s with a 404, neither the file nor the app", async (path) => {
    const { app } = proxyServing(carelessWebRoot());
    for (const method of ["GET", "HEAD"]) {
      const response = await app.request(path, { method });
      expect(response.status).toBe(404);
      const text = await response.text();
      expect(text).not.toContain(SECRET);
      expect(text).not.toBe(INDEX_HTML);
    }
  });

  it("serves a symlink that stays inside the web root", async () => {
    const { app } = proxyServing(carelessWebRoot());
    const response = await app.request("/icon.svg");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("<svg></svg>");
  });

  it("does not serve an index.html that is a symlink out of the web root", async () => {
    const root = emptyWebRoot();
    const elsewhere = mkdtempSync(join(tmpdir(), "vics-elsewhere-"));
    writeFileSync(join(elsewhere, "index.html"), SECRET);
    symlinkSync(join(elsewhere, "index.html"), join(root, "index.html"));
    const { app } = proxyServing(root);
    for (const path of ["/", "/vehicle/AB12CDE", "/index.html"]) {
      const response = await app.request(path);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain(SECRET);
    }
  });
});

describe("precompressed copies that a symlink leads out of the web root", () => {
  const SECRET = "vics_the_proxy_key_in_the_data_folder";

  /**
   * The web app with real Brotli and gzip copies of index.html and the script, then one copy
   * (`copy`, e.g. "assets/index-a1b2c3.js.gz") swapped for a symlink to `target`.
   */
  function webRootWithLinkedCopy(copy: string, target: "file" | "folder") {
    const root = withCompressedCopies(
      builtWebRoot({
        "index.html": INDEX_HTML,
        "assets/index-a1b2c3.js": SCRIPT,
      }),
      ["index.html", "assets/index-a1b2c3.js"],
    );
    const data = mkdtempSync(join(tmpdir(), "vics-data-"));
    writeFileSync(join(data, "proxy-api-key"), SECRET);
    rmSync(join(root, copy));
    symlinkSync(
      target === "file" ? join(data, "proxy-api-key") : data,
      join(root, copy),
    );
    return root;
  }

  // [the copy linked out, the path asked for, Accept-Encoding, the encoding then sent]
  const CASES: Array<[string, string, string, string | null]> = [
    ["assets/index-a1b2c3.js.gz", "/assets/index-a1b2c3.js", "gzip", null],
    ["assets/index-a1b2c3.js.gz", "/assets/index-a1b2c3.js", "br, gzip", "br"],
    ["assets/index-a1b2c3.js.br", "/assets/index-a1b2c3.js", "br", null],
    [
      "assets/index-a1b2c3.js.br",
      "/assets/index-a1b2c3.js",
      "br, gzip",
      "gzip",
    ],
    ["index.html.gz", "/", "gzip", null],
    ["index.html.gz", "/vehicle/AB12CDE", "gzip", null],
    ["index.html.br", "/", "br", null],
    ["index.html.br", "/", "gzip, deflate, br", "gzip"],
    ["index.html.br", "/vehicle/AB12CDE", "br", null],
    ["index.html.br", "/vehicle/AB12CDE", "br, gzip", "gzip"],
  ];

  describe.each(["file", "folder"] as const)("to a %s outside", (target) => {
    it.each(CASES)(
      "%s: %s with Accept-Encoding %j is never the copy: it gets %s",
      async (copy, path, accept, encoding) => {
        const { app } = proxyServing(webRootWithLinkedCopy(copy, target));
        const text = path.startsWith("/assets/") ? SCRIPT : INDEX_HTML;
        for (const method of ["GET", "HEAD"]) {
          const response = await app.request(path, {
            method,
            headers: { "Accept-Encoding": accept },
          });
          expect(response.status).toBe(200);
          expect(response.headers.get("Content-Encoding")).toBe(encoding);
          const bytes = Buffer.from(await response.arrayBuffer());
          expect(bytes.toString()).not.toContain(SECRET);
          if (method === "HEAD") continue;
          expect(decoded(bytes, encoding)).toBe(text);
          expect(Number(response.headers.get("Content-Length"))).toBe(
            bytes.byteLength,
          );
        }
      },
    );
  });

  it("still sends a copy that is a symlink staying inside the web root", async () => {
    const root = builtWebRoot({
      "index.html": INDEX_HTML,
      "assets/index-a1b2c3.js": SCRIPT,
    });
    writeFileSync(
      join(root, "assets", "shared.gz"),
      gzipSync(Buffer.from(SCRIPT)),
    );
    symlinkSync(
      join(root, "assets", "shared.gz"),
      join(root, "assets", "index-a1b2c3.js.gz"),
    );
    const { app } = proxyServing(root);
    const response = await app.request("/assets/index-a1b2c3.js", {
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
    expect(response.headers.get("Vary")).toBe("Accept-Encoding");
    expect(decoded(Buffer.from(await response.arrayBuffer()), "gzip")).toBe(
      SCRIPT,
    );
  });
});

describe("before the web app is built", () => {
  it.each(["/", "/vehicle/AB12CDE"])(
    "answers %s with a 503 page saying how to build it",
    async (path) => {
      const { app } = proxyServing(emptyWebRoot());
      const response = await app.request(path);
      expect(response.status).toBe(503);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text).toContain("not built");
      expect(text).toContain("npm run build -w @vics/web");
    },
  );

  it("still answers when the web root does not exist at all", async () => {
    const { app } = proxyServing(join(emptyWebRoot(), "missing", "dist"));
    const response = await app.request("/");
    expect(response.status).toBe(503);
  });

  it("picks up a build made while it runs", async () => {
    const webRoot = join(emptyWebRoot(), "dist");
    const { app } = proxyServing(webRoot);
    expect((await app.request("/")).status).toBe(503);
    mkdirSync(webRoot);
    writeFileSync(join(webRoot, "index.html"), INDEX_HTML);
    const response = await app.request("/vehicle/AB12CDE");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX_HTML);
  });
});
