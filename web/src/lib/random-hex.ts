/**
 * `bytes` random bytes as lower-case hex. crypto.getRandomValues, not randomUUID: that needs a
 * secure context, which a LAN address may not be.
 */
export function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
}
