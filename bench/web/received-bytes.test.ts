import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BROWSER_ACCEPT_ENCODING,
  encodingsUsed,
  initialDownload,
} from "./received-bytes.ts";

const HTML = "<!doctype html><title>VICS</title>".repeat(20);
const SCRIPT = "console.log('app');".repeat(500);
const STYLE = "body{margin:0}";

let server: Server;
let baseUrl: string;
const asked: Array<string | undefined> = [];

beforeAll(async () => {
  // A server that compresses the page and the script with Brotli when asked, and sends the
  // stylesheet as it is, as the proxy does for a file too small to compress.
  server = createServer((incoming, outgoing) => {
    asked.push(incoming.headers["accept-encoding"]);
    const files: Record<string, [string, string]> = {
      "/": [HTML, "text/html"],
      "/assets/index-a1.js": [SCRIPT, "text/javascript"],
      "/assets/index-b2.css": [STYLE, "text/css"],
    };
    const file = files[incoming.url ?? ""];
    if (!file) {
      outgoing.writeHead(404).end();
      return;
    }
    const [text, type] = file;
    const br =
      type !== "text/css" &&
      (incoming.headers["accept-encoding"] ?? "").includes("br");
    const body = br ? brotliCompressSync(text) : Buffer.from(text);
    outgoing.writeHead(200, {
      "Content-Type": type,
      ...(br ? { "Content-Encoding": "br" } : {}),
    });
    outgoing.end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => server.close());

describe("initialDownload", () => {
  it("asks as a browser does and counts the bytes as sent, not as decoded", async () => {
    asked.length = 0;
    const download = await initialDownload(baseUrl, [
      "assets/index-a1.js",
      "assets/index-b2.css",
    ]);
    expect(asked).toEqual([
      BROWSER_ACCEPT_ENCODING,
      BROWSER_ACCEPT_ENCODING,
      BROWSER_ACCEPT_ENCODING,
    ]);
    expect(download).toMatchObject({
      htmlBytes: brotliCompressSync(HTML).length,
      jsBytes: brotliCompressSync(SCRIPT).length,
      cssBytes: STYLE.length,
    });
    expect(download.jsBytes).toBeLessThan(SCRIPT.length / 10);
    expect(download.files.map((file) => [file.path, file.encoding])).toEqual([
      ["", "br"],
      ["assets/index-a1.js", "br"],
      ["assets/index-b2.css", "identity"],
    ]);
    expect(encodingsUsed(download)).toBe("br, identity");
  });

  it("counts the files as they are when the client takes no encoding", async () => {
    const download = await initialDownload(
      baseUrl,
      ["assets/index-a1.js"],
      "identity",
    );
    expect(download.jsBytes).toBe(SCRIPT.length);
  });

  it("refuses to measure a file that is not there", async () => {
    await expect(
      initialDownload(baseUrl, ["assets/index-old.js"]),
    ).rejects.toThrow("GET /assets/index-old.js answered 404");
  });
});
