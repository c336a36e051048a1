// What a first visit's browser receives over the wire: index.html and what it loads before the
// app runs, fetched from the running proxy as a browser asks for them (Accept-Encoding: br,
// gzip), with the bytes counted as they arrive, before any decoding. The build's own gzip sizes
// (bundle-size.ts) say what compression could save; this says what the server sends.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

/** What Chromium and Firefox send for a script or a page, the codings the server may use. */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

export interface ReceivedFile {
  /** Path inside the web root, "" for the page itself. */
  path: string;
  kind: "html" | "js" | "css";
  status: number;
  /** The body's bytes as sent, before any decoding. */
  bytes: number;
  /** The Content-Encoding the server chose, or "identity". */
  encoding: string;
}

export interface InitialDownload {
  files: ReceivedFile[];
  htmlBytes: number;
  jsBytes: number;
  cssBytes: number;
}

function kindOf(path: string): ReceivedFile["kind"] {
  if (path.endsWith(".js")) return "js";
  if (path.endsWith(".css")) return "css";
  return "html";
}

/** One GET of `url` with `acceptEncoding`; its body counted, never decoded. */
function receive(
  url: URL,
  acceptEncoding: string,
): Promise<{ status: number; bytes: number; encoding: string }> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      { method: "GET", headers: { "Accept-Encoding": acceptEncoding } },
      (incoming) => {
        let bytes = 0;
        incoming.on("data", (chunk: Buffer) => (bytes += chunk.length));
        incoming.on("error", reject);
        incoming.on("end", () =>
          resolve({
            status: incoming.statusCode ?? 0,
            bytes,
            encoding: incoming.headers["content-encoding"] ?? "identity",
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/**
 * index.html at `baseUrl` and each of `assetPaths` (relative to it), as a browser receives them.
 * A file that does not answer 200 is an error: the figure would be of something else.
 */
export async function initialDownload(
  baseUrl: string,
  assetPaths: readonly string[],
  acceptEncoding = BROWSER_ACCEPT_ENCODING,
): Promise<InitialDownload> {
  const files: ReceivedFile[] = [];
  for (const path of ["", ...assetPaths]) {
    const answer = await receive(new URL(path, baseUrl), acceptEncoding);
    if (answer.status !== 200)
      throw new Error(`GET /${path} answered ${answer.status}`);
    files.push({ path, kind: kindOf(path), ...answer });
  }
  const total = (kind: ReceivedFile["kind"]) =>
    files
      .filter((file) => file.kind === kind)
      .reduce((sum, file) => sum + file.bytes, 0);
  return {
    files,
    htmlBytes: total("html"),
    jsBytes: total("js"),
    cssBytes: total("css"),
  };
}

/** "br" or "br, gzip": the encodings the files came in, for the table. */
export function encodingsUsed(download: InitialDownload): string {
  return [...new Set(download.files.map((file) => file.encoding))].join(", ");
}
