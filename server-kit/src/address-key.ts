// Who a client address counts as, for the limits that are kept per address (the service's
// wrong-key limit, both servers' connection caps). Node only, like ./registration-hash.
import { isIPv4, isIPv6 } from "node:net";

/** The 16-bit groups of a valid IPv6 address, a trailing dotted IPv4 part as two of them. */
function ipv6Groups(address: string): number[] {
  const withoutZone = address.split("%")[0] ?? address;
  const groups = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((piece) => {
          if (!piece.includes(".")) return [Number.parseInt(piece, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = piece.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = "", tail] = withoutZone.split("::");
  const before = groups(head);
  if (tail === undefined) return before;
  const after = groups(tail);
  return [
    ...before,
    ...Array<number>(8 - before.length - after.length).fill(0),
    ...after,
  ];
}

/**
 * The key an address is counted under: an IPv4 address as it is (also when it comes as an
 * IPv4-mapped IPv6 address, `::ffff:192.0.2.1`, as on a dual-stack socket); an IPv6 address
 * by its /64 prefix, `2001:db8:0:1::/64`, since one subscriber is usually given a whole /64
 * and can pick any address in it; anything else as it is.
 */
export function addressKey(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const mapped =
    groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
