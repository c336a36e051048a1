import {
  createCipheriv,
  createDecipheriv,
  hkdfSync,
  randomBytes,
} from "node:crypto";

/**
 * An OIDC sign-in under way, between the redirect to the provider and its callback. It lives
 * in the browser's own cookie, sealed (AES-256-GCM), never in the store: a signed-out client
 * that starts sign-in a million times writes nothing (issue 33).
 */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  /** ms since the epoch; refused after, whatever the cookie's Max-Age. */
  expiresAt: number;
  /** Set when a signed-in user links their provider sign-in: the user's id. */
  linkTo?: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The sealed value's purpose, bound into every seal: it opens nowhere else. */
const PURPOSE = Buffer.from("vics oidc pending login v1");

/**
 * The sealing key, derived from the OIDC client secret: every replica has it, no one outside
 * does, and no key of its own needs storing. A new client secret ends logins under way.
 */
export function pendingLoginKey(clientSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", clientSecret, "", PURPOSE, 32));
}

export function sealPendingLogin(login: PendingLogin, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(PURPOSE);
  const sealed = Buffer.concat([
    cipher.update(JSON.stringify(login), "utf8"),
    cipher.final(),
  ]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

/** The login a cookie holds; undefined when changed, made with another key, or expired. */
export function openPendingLogin(
  cookie: string | undefined,
  key: Buffer,
  now: number,
): PendingLogin | undefined {
  if (!cookie || cookie.length > 4096) return undefined;
  const bytes = Buffer.from(cookie, "base64url");
  if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  let text: string;
  try {
    const decipher = createDecipheriv(
      "aes-256-gcm",
      key,
      bytes.subarray(0, IV_BYTES),
    );
    decipher.setAAD(PURPOSE);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    text =
      decipher.update(
        bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES),
        undefined,
        "utf8",
      ) + decipher.final("utf8");
  } catch {
    return undefined;
  }
  const login = JSON.parse(text) as PendingLogin;
  return login.expiresAt > now ? login : undefined;
}
