import { isIP } from "node:net";

/**
 * True for addresses only this machine can reach: 127.0.0.0/8, ::1 (and its
 * IPv4-mapped form) and the name localhost. The proxy listens on one of these unless HOST says
 * otherwise, and then it needs an https PUBLIC_ORIGIN and an active admin (env.ts, index.ts);
 * with no PUBLIC_ORIGIN it answers only loopback Host headers (host-check.ts). An alert mail
 * server that is not on loopback must use TLS (mailer.ts).
 */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost") return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  if (isIP(name) === 6) {
    if (name === "::1" || name === "0:0:0:0:0:0:0:1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name);
    return mapped?.[1] !== undefined && mapped[1].startsWith("127.");
  }
  return false;
}
