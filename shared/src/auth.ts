import { z } from "zod";
import {
  AUDIT_ACTIONS,
  CHECK_ACTIONS,
  isSameOriginPath,
  RECENT_CHECK_VERDICTS,
  ROLES,
  USER_STATES,
} from "./access.ts";

/**
 * The proxy's own routes for staff sign-in, users and the audit log (docs/api.md, "Staff
 * sign-in"): what the web app sends and gets back. They live under /api/auth, /api/admin and
 * /api/me, beside the forwarded /api/v1, and speak the same problem documents.
 */

export const RoleSchema = z.enum(ROLES);

export const SessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  /** Whether the user has a local password (the account page offers to change it). */
  hasPassword: z.boolean(),
  /** Whether an organisation (OIDC) sign-in is linked to the account. */
  hasOidcLink: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** GET /api/auth/methods, open to all: which ways to sign in the page offers. */
export const SignInMethodsSchema = z.object({
  local: z.boolean(),
  /**
   * The provider's button words, e.g. "Sign in with Microsoft"; null when OIDC is off.
   * `available`: false while the proxy has not yet reached the provider (it keeps trying).
   */
  oidc: z.object({ label: z.string(), available: z.boolean() }).nullable(),
});
export type SignInMethods = z.infer<typeof SignInMethodsSchema>;

/** GET /api/auth/session (401 SIGN_IN_REQUIRED when signed out), and every sign-in's answer. */
export const SessionSchema = z.object({
  user: SessionUserSchema,
  /** When the session ends at the latest (ISO); idle time ends it sooner. */
  expiresAt: z.string(),
});
export type SessionAnswer = z.infer<typeof SessionSchema>;

/** A path on this site to return to after sign-in (see isSameOriginPath). */
export const ReturnToSchema = z
  .string()
  .max(2000)
  .refine((path) => isSameOriginPath(path), "must be a path on this site");

export const SignInRequestSchema = z.object({
  email: z.string().trim().min(1, "Enter your email address").max(320),
  password: z.string().min(1, "Enter your password").max(1024),
});

export const TokenRequestSchema = z.object({
  token: z.string().min(1).max(100),
});

export const SetPasswordRequestSchema = z.object({
  token: z.string().min(1).max(100),
  password: z.string().max(1024),
});

export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().max(1024),
  newPassword: z.string().max(1024),
});

/** POST /api/auth/first-password: no current password to give, as the account has none. */
export const FirstPasswordRequestSchema = z.object({
  newPassword: z.string().max(1024),
});

/** POST /api/auth/sign-out: where the browser goes next (the provider's sign-out, or /sign-in). */
export const SignOutAnswerSchema = z.object({ redirectTo: z.string() });

/** POST /api/auth/oidc/link: the provider's page to send the browser to. */
export const OidcLinkAnswerSchema = z.object({ redirectTo: z.string() });
export type OidcLinkAnswer = z.infer<typeof OidcLinkAnswerSchema>;

export const AdminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  state: z.enum(USER_STATES),
  /** How they sign in: a password, a provider, both, or neither yet (invited). */
  signsInWith: z.array(z.enum(["password", "oidc"])),
  createdAt: z.string(),
  /** Until when an admin's leave lets the next organisation sign-in link by email (ISO); null when none is open. */
  linkAllowedUntil: z.string().nullable(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const UserListSchema = z.object({ users: z.array(AdminUserSchema) });

export const InviteRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .email("Enter an email address, like name@example.org")
    .max(320),
  name: z.string().trim().max(200).default(""),
  role: RoleSchema,
});

/** POST /api/admin/users and POST /api/admin/users/:id/reset: the link to send, once. */
export const OneTimeLinkAnswerSchema = z.object({
  user: AdminUserSchema,
  link: z.string(),
  expiresAt: z.string(),
});

/** PATCH /api/admin/users/:id */
export const UserChangeSchema = z
  .object({ role: RoleSchema.optional(), disabled: z.boolean().optional() })
  .refine(
    (change) => change.role !== undefined || change.disabled !== undefined,
    {
      error: "Give a role or disabled",
    },
  );

export const AuditEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  registrations: z.array(z.string()),
  outcome: z.string(),
  /** The proxy's own id for the request, never one a client chose. */
  requestId: z.string().nullable(),
  /** The X-Request-Id the client sent, if any: its own name for the request. */
  correlationId: z.string().nullable().optional(),
  clientAddress: z.string().nullable(),
  /** How many attempts one aggregated event stands for (throttled sign-ins, refusals), from `at` to `lastAt`. */
  count: z.number().int().optional(),
  lastAt: z.string().optional(),
  detail: z
    .record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean(), z.null()]),
    )
    .optional(),
});
export type AuditEventAnswer = z.infer<typeof AuditEventSchema>;

/** GET /api/admin/audit?user=&registration=&from=&to=&before=&limit= (dates as YYYY-MM-DD, UK). */
export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  /** The `before` of the next (older) page; null on the last. */
  next: z.number().int().nullable(),
});

/** GET /api/me/recent-checks: the signed-in user's own last checks, newest first. */
export const RecentChecksSchema = z.object({
  checks: z.array(
    z.object({
      at: z.string(),
      action: z.enum(CHECK_ACTIONS),
      registrations: z.array(z.string()),
      outcome: z.string(),
      /**
       * What a single check found, when it was answered (200 or 404): the proxy reads it from
       * the answer it checked against the contract. The page's words for it ("Insured", "No
       * vehicle found"); absent for a bulk check, a failed one, or a proxy that does not say.
       */
      verdict: z.enum(RECENT_CHECK_VERDICTS).optional(),
      /** The day the check was asked about, when it was not the day it was made. */
      date: z.string().optional(),
    }),
  ),
});
