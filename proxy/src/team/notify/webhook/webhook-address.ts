// Decides whether a team's webhook URL may be called. A webhook is a request our servers make
// to an address someone typed in, so without this check it would be a way into the internal
// network: the database's admin port, another service, the cloud's metadata endpoint at
// 169.254.169.254. The host is resolved here, every address it has is checked, and the caller
// connects only to those checked addresses (see pinned-lookup.ts), so a name cannot resolve to
// a public address for the check and a private one for the connection.
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Every address of a host name, as `dns.promises.lookup(name, { all: true })` gives them. */
export type Lookup = (hostname: string) => Promise<LookupAddress[]>;

/** The verdict: the URL and the addresses to connect to, or why it may not be called. */
type WebhookUrlCheck =
  | { ok: true; url: URL; addresses: LookupAddress[] }
  | { ok: false; reason: string };

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true });

/** ipaddr.js's names for the ranges that are not public, in words. */
const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address (this machine itself)",
  private: "a private-network address",
  linkLocal: "a link-local address (where cloud metadata services answer)",
  carrierGradeNat:
    "a carrier-grade NAT address (a provider's internal network)",
  uniqueLocal: "a unique-local IPv6 address (a private network)",
  unspecified: "the unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
  rfc6052:
    "an IPv6 address that translates to IPv4 (NAT64), which could reach a private one",
  "6to4":
    "a 6to4 address, which carries an IPv4 address that could be a private one",
  teredo:
    "a Teredo tunnel address, which carries an IPv4 address that could be a private one",
};

/** All of IPv6 that is handed out as public addresses today. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Whether `url` may be called as a webhook. It must be http(s) with no user name or password
 * in it, and, unless `allowPrivate` (for development and tests), every address its host has
 * must be public. Never throws.
 */
export async function checkWebhookUrl(
  url: string,
  options: { allowPrivate: boolean; lookup?: Lookup },
): Promise<WebhookUrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "The webhook address is not a URL." };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return {
      ok: false,
      reason: `The webhook address starts with ${parsed.protocol}; it must be an http:// or https:// URL.`,
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return {
      ok: false,
      reason:
        "The webhook address has a user name or password in it; remove them (deliveries are signed instead).",
    };
  }
  // The URL parser has already turned 2130706433, 0x7f.1 and the like into dotted IPv4.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = isIP(host);
  let addresses: LookupAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        ok: false,
        reason: `The webhook's host ${host} could not be found${code ? ` (${code})` : ""}.`,
      };
    }
    if (addresses.length === 0) {
      return {
        ok: false,
        reason: `The webhook's host ${host} has no address.`,
      };
    }
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const why = notPublic(address);
      if (why !== null) {
        const where =
          literal !== 0 ? address : `${host} resolves to ${address}, which`;
        return {
          ok: false,
          reason: `The webhook's host ${where} is ${why}: a webhook may only call public internet addresses.`,
        };
      }
    }
  }
  return { ok: true, url: parsed, addresses };
}

/** Why `address` is not a public unicast address, or null when it is. */
function notPublic(address: string): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  const raw = ipaddr.parse(address);
  // process() turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) into the IPv4 one it maps.
  const ip = ipaddr.process(address);
  const range = ip.range();
  const mapped =
    raw.kind() === "ipv6" && ip.kind() === "ipv4"
      ? `an IPv4-mapped ${ip.toString()}, `
      : "";
  if (range !== "unicast") {
    const words =
      RANGE_WORDS[range] ?? `not a public address (in the ${range} range)`;
    return mapped + words;
  }
  // ipaddr.js calls some IPv6 "unicast" that no public host has, such as the deprecated
  // IPv4-compatible ::7f00:1 (::127.0.0.1): only 2000::/3 is handed out.
  if (ip.kind() === "ipv6" && !ip.match(GLOBAL_UNICAST_V6)) {
    return "an IPv6 address outside the public range 2000::/3";
  }
  return null;
}
