// How staff sign in: sessions' lengths, the local password sign-in, the organisation's OpenID
// Connect provider (OIDC_*) and the first admin `npm start` makes.
import { z } from "zod";
import {
  commaList,
  valueOrFile,
  wholeNumber,
} from "@vics/server-kit/env-fields";
import { isLoopbackHost } from "../gateway/edges/loopback.ts";
import { DEFAULT_FIRST_ADMIN_EMAIL } from "../team/users/first-admin.ts";
import { REPO_ROOT } from "./paths.ts";

export interface OidcEnv {
  issuer: string;
  clientId: string;
  clientSecret: string;
  label: string;
  allowedDomains: string[];
  /** An http issuer: allowed only on loopback (a provider on this machine, in tests). */
  allowHttpIssuer: boolean;
}

export const SIGN_IN_ENV_SHAPE = {
  SESSION_IDLE_MINUTES: wholeNumber(8 * 60, {
    max: 30 * 24 * 60,
    tooLarge: "must be at most 43200 (30 days)",
  }),
  SESSION_MAX_HOURS: wholeNumber(12, {
    max: 30 * 24,
    tooLarge: "must be at most 720 (30 days)",
  }),
  LOCAL_SIGN_IN: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("true"),
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/, error: "must be the provider's issuer URL" })
    .optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET_FILE: z.string().optional(),
  OIDC_LABEL: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .default("Sign in with your organisation account"),
  OIDC_ALLOWED_DOMAINS: commaList.default([]),
  FIRST_ADMIN_EMAIL: z
    .string()
    .trim()
    .regex(/^[^\s@]+@[^\s@]+$/, { error: "must be an email address" })
    .default(DEFAULT_FIRST_ADMIN_EMAIL),
};

type SignInRaw = z.infer<z.ZodObject<typeof SIGN_IN_ENV_SHAPE>>;

/** What OIDC's variables, set together or not at all, lack or get wrong. */
export function oidcErrors(present: Record<string, string>): string[] {
  const errors: string[] = [];
  const named = ["OIDC_ISSUER", "OIDC_CLIENT_ID"].filter(
    (name) => present[name] !== undefined,
  );
  const secret =
    present.OIDC_CLIENT_SECRET !== undefined ||
    present.OIDC_CLIENT_SECRET_FILE !== undefined;
  if (named.length === 0 && !secret) {
    if (present.LOCAL_SIGN_IN === "false")
      errors.push(
        "LOCAL_SIGN_IN=false needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: otherwise no one could sign in",
      );
    return errors;
  }
  if (named.length < 2 || !secret)
    errors.push(
      "OIDC needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (or OIDC_CLIENT_SECRET_FILE) together",
    );
  if (present.PUBLIC_ORIGIN === undefined)
    errors.push(
      "OIDC needs PUBLIC_ORIGIN: the provider sends people back to PUBLIC_ORIGIN/api/auth/oidc/callback, never to an address taken from a request",
    );
  if (
    present.OIDC_ISSUER?.startsWith("http:") &&
    !loopbackUrl(present.OIDC_ISSUER)
  )
    errors.push(
      "OIDC_ISSUER must be https (http only for a provider on this machine)",
    );
  return errors;
}

const loopbackUrl = (url: string) =>
  URL.canParse(url) &&
  isLoopbackHost(new URL(url).hostname.replace(/^\[|\]$/g, ""));

/**
 * OIDC_CLIENT_SECRET, or the file OIDC_CLIENT_SECRET_FILE names (only one of them may be set);
 * undefined when neither is.
 */
export const readOidcSecret = (present: Record<string, string>) =>
  valueOrFile(present, "OIDC_CLIENT_SECRET", REPO_ROOT);

/** The provider, when its three variables are set. */
export function oidcOf(
  raw: SignInRaw,
  secret: string | undefined,
): OidcEnv | undefined {
  return raw.OIDC_ISSUER && raw.OIDC_CLIENT_ID && secret
    ? {
        issuer: raw.OIDC_ISSUER,
        clientId: raw.OIDC_CLIENT_ID,
        clientSecret: secret,
        label: raw.OIDC_LABEL,
        allowedDomains: raw.OIDC_ALLOWED_DOMAINS,
        allowHttpIssuer: raw.OIDC_ISSUER.startsWith("http:"),
      }
    : undefined;
}
