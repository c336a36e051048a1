import type { AppContext } from "../http/app-env.ts";
import { EDGE_PROBLEMS } from "./edge-problems.ts";
import { isLoopbackHost } from "./loopback.ts";

// A name or IPv4 address, or a bracketed IPv6 address, and an optional port: nothing else
// (no user info, path or spaces) is an authority a browser sends.
const AUTHORITY = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

const DEFAULT_PORTS: Record<string, string> = {
  "http:": "80",
  "https:": "443",
};

/** Host name (as the URL parser normalises it) and port, or undefined when malformed. */
function parseAuthority(authority: string) {
  const match = AUTHORITY.exec(authority);
  if (!match) return undefined;
  try {
    return {
      hostname: new URL(`http://${match[1]}`).hostname,
      port: match[2],
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether a request's authority (a Host header, or its URL's host) is this proxy's own: the
 * public origin's host and port when one is configured, else a loopback name or address, the
 * only ones a browser on this machine uses for a proxy that listens on loopback.
 */
export function isOwnAuthority(authority: string, publicOrigin?: URL): boolean {
  const parsed = parseAuthority(authority);
  if (!parsed) return false;
  if (!publicOrigin) return isLoopbackHost(parsed.hostname);
  // An explicit default port (host:443 for https) is the same authority as none at all.
  const defaultPort = DEFAULT_PORTS[publicOrigin.protocol];
  return (
    parsed.hostname === publicOrigin.hostname &&
    (parsed.port ?? defaultPort) === (publicOrigin.port || defaultPort)
  );
}

/**
 * Against DNS rebinding: a page on an attacker's name that resolves to this proxy is, to the
 * browser, of the attacker's origin, so the same-origin rules do not protect the proxy; but
 * its Host header names the attacker's host. Both the Host header and the request's own URL
 * (they differ only for an absolute-form request target) must name this proxy: else 421.
 * A check that throws, not a middleware: the edges run as one middleware (edges.ts).
 */
export function hostCheck(publicOrigin?: string): (c: AppContext) => void {
  const origin = publicOrigin === undefined ? undefined : new URL(publicOrigin);
  const address =
    origin?.origin ??
    "its own address on this machine (localhost or 127.0.0.1)";
  // The few authorities a proxy is sent as its own names, so that its requests parse none.
  // Only own ones are kept (bounded, as a client could vary the port's spelling): a Host is the
  // client's to choose, and a run of foreign ones must not fill the cache before the real one.
  const known = new Set<string>();
  const isOwn = (authority: string) => {
    if (known.has(authority)) return true;
    const own = isOwnAuthority(authority, origin);
    if (own && known.size < KNOWN_AUTHORITIES) known.add(authority);
    return own;
  };
  return (c) => {
    const host = c.req.header("Host");
    const url = c.req.url;
    // The URL is built from the Host header but for an absolute-form target, or a Host the
    // URL parser rewrites. When its authority is the Host header as it came, one check will
    // do: the parsed URL's host of a plain host[:port] can only drop a default port, which
    // no own authority depends on (isOwnAuthority). Else both are checked, the URL parsed.
    if (host !== undefined && urlAuthority(url) === host) {
      if (!isOwn(host)) throw EDGE_PROBLEMS.misdirected(address);
      return;
    }
    const authorities = [new URL(url).host];
    if (host !== undefined && host !== authorities[0]) authorities.push(host);
    if (!authorities.every(isOwn)) throw EDGE_PROBLEMS.misdirected(address);
  };
}

const KNOWN_AUTHORITIES = 64;

/** The authority of an http(s) URL as written (between `//` and the path), or undefined. */
function urlAuthority(url: string): string | undefined {
  const start = url.indexOf("://");
  if (start === -1) return undefined;
  const end = url.indexOf("/", start + 3);
  return url.slice(start + 3, end === -1 ? undefined : end);
}
