import { API_VERSION_PREFIX, PROXY_PREFIX } from "@vics/shared";

/**
 * What a request path names, however it is spelled. Browsers and servers disagree about
 * `%2F`, `\`, `;`, `//`, `.` and `..`, so the proxy decides on the most decoded reading: a
 * path that could mean a dotfile or the API anywhere is treated as meaning it here.
 */

/** Enough for any honest path; more rounds only feed a hostile one. */
const DECODE_ROUNDS = 4;

/**
 * One round of percent-decoding. When the whole is not UTF-8, ASCII escapes are decoded one by
 * one (a dot or a slash may hide beside a byte that is not UTF-8), and each run of the other
 * escapes only if it is UTF-8.
 */
function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text
      .replace(/%[0-7][0-9A-Fa-f]/g, (escape) =>
        String.fromCharCode(Number.parseInt(escape.slice(1), 16)),
      )
      .replace(/(?:%[89A-Fa-f][0-9A-Fa-f])+/g, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      });
  }
}

/** The path percent-decoded until it stops changing (`%252e` is a dot too), `\` read as `/`. */
export function decodedPath(path: string): string {
  let current = path;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const next = decodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current.replaceAll("\\", "/");
}

/** Whether any segment of the decoded path starts with a dot: `/.env`, `/%2egit/config`, `/..`. */
export function namesDotfile(path: string): boolean {
  return decodedPath(path)
    .split("/")
    .some((segment) => segment.startsWith("."));
}

/** Spaces, control and format characters (a NUL, a zero-width space) that hide in a segment. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}]/gu;

/**
 * The decoded path in NFKC (full-width letters, slashes and dots as plain ones), split into
 * segments, each without its `;parameters` and invisible characters and in lower case, with
 * empty ones and `.` dropped; `..` is resolved when `resolveDots`, else kept.
 */
function normalisedSegments(path: string, resolveDots: boolean): string[] {
  const segments: string[] = [];
  const normalised = decodedPath(path).normalize("NFKC").replaceAll("\\", "/");
  for (const raw of normalised.split("/")) {
    const segment = (raw.split(";")[0] ?? "")
      .replace(INVISIBLE, "")
      .toLowerCase();
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && resolveDots) segments.pop();
    else segments.push(segment);
  }
  return segments;
}

const API_FIRST_SEGMENTS = new Set(
  [PROXY_PREFIX, API_VERSION_PREFIX].map((prefix) =>
    prefix.replace(/^\//, "").toLowerCase(),
  ),
);

/**
 * Whether the path reads as the API (`/api/...`, or the service's own `/v1/...`) in any
 * spelling: `/API/v1`, `/api%2Fv1`, `//api/v1`, `/api;x/v1`, `/%61pi/v1`, `/api/./v1`,
 * `/x/../api/v1`. Both readings count, with `..` resolved and as written: `/api/..%2Fx`
 * starts as the API, whatever a server that decodes `%2F` late would make of it. Such a path
 * that is not a real route is the proxy's JSON 404, never the web app's HTML: an API client
 * must never be handed a page.
 */
export function looksLikeApi(path: string): boolean {
  return [true, false].some((resolveDots) => {
    const first = normalisedSegments(path, resolveDots)[0];
    return first !== undefined && API_FIRST_SEGMENTS.has(first);
  });
}
