/**
 * The plain facts of staff sign-in, without zod: roles, the proxy's own paths, the audit's
 * actions and a recent check's verdicts. Every page needs some of them before it has loaded
 * zod (the schemas in auth.ts load with the first answer), so they are kept apart.
 */

export const ROLES = ["staff", "fleet", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do; each role may also do everything of the roles before it. */
export const ROLE_WORDS: Record<Role, string> = {
  staff: "single insurance and compliance checks",
  fleet: "single checks and fleet checks of whole lists",
  admin: "everything, and managing users and reading the audit log",
};

export const hasRole = (role: Role, needed: Role) =>
  ROLES.indexOf(role) >= ROLES.indexOf(needed);

export const AUTH_PATHS = {
  methods: "/api/auth/methods",
  session: "/api/auth/session",
  signIn: "/api/auth/sign-in",
  signOut: "/api/auth/sign-out",
  signOutEverywhere: "/api/auth/sign-out-everywhere",
  /** The one-time sign-in link of `npm start` (token in the body, from the URL's fragment). */
  useSignInLink: "/api/auth/sign-in-link",
  /** An invitation's or a reset's link: the token and the new password. */
  setPassword: "/api/auth/set-password",
  changePassword: "/api/auth/password",
  /**
   * A signed-in account with no password and no organisation sign-in (the first admin, someone
   * signed in by a one-time link) sets its first one; an account with one changes it above.
   */
  firstPassword: "/api/auth/first-password",
  /** A navigation, not a fetch: `?returnTo=/path` and the browser goes to the provider. */
  oidcStart: "/api/auth/oidc/start",
  oidcCallback: "/api/auth/oidc/callback",
  /**
   * POST: the signed-in user links their organisation sign-in (answers where to send the
   * browser); DELETE: undoes their link. An admin's are at users/:id/oidc-link.
   */
  oidcLink: "/api/auth/oidc/link",
  users: "/api/admin/users",
  audit: "/api/admin/audit",
  auditCsv: "/api/admin/audit.csv",
  recentChecks: "/api/me/recent-checks",
} as const;

/** A path on this site to return to after sign-in: never another origin (no open redirect). */
export function isSameOriginPath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\"))
    return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return false;
  const resolved = new URL(path, "http://vics.invalid");
  return resolved.origin === "http://vics.invalid";
}

export const USER_STATES = ["active", "invited", "disabled"] as const;

/**
 * The checks the proxy forwards, audits and counts against a person's own limit: each is one
 * forwarded operation (proxy/src/gateway/forward/forwarded-operations.ts). A new check adds its name here.
 */
export const CHECK_ACTIONS = [
  "check.insurance",
  "check.compliance",
  "check.bulk-insurance",
  "check.bulk-compliance",
  // Each starts "check.": the audit finds checks by that prefix (its 'check.%' filters), so an
  // action outside it would be a check the audit's counts and recent checks never see.
] as const satisfies readonly `check.${string}`[];
export type CheckAction = (typeof CHECK_ACTIONS)[number];

export const AUDIT_ACTIONS = [
  ...CHECK_ACTIONS,
  "sign-in",
  "sign-in.failed",
  "sign-out",
  "user.invite",
  "user.create",
  "user.role",
  "user.disable",
  "user.enable",
  "user.reset",
  "user.password",
  /** An OIDC identity linked to an account (detail.by: invitation, admin or owner). */
  "user.oidc-link",
  "user.oidc-unlink",
  /** An admin lets the account's next OIDC sign-in with its email link it. */
  "user.oidc-allow",
  "key.rotate",
  "fleet.create",
  "fleet.update",
  "fleet.rename",
  "fleet.delete",
  "fleet.check-now",
  "watch.schedule",
  "fleet.alert-rule",
  "alert-rule.unsubscribe",
  "webhook.create",
  "webhook.rotate",
  "webhook.delete",
  "delivery.replay",
  "alert-mail.settings",
  "access.refused",
  "audit.read",
  "audit.export",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PAGE_SIZE = 50;

/**
 * The first cell of the last row of an audit CSV that holds fewer events than its search
 * found (the proxy's cap): the web app reads the file's tail for it and says so.
 */
export const AUDIT_CSV_CUT_OFF = "Cut off:";

export const RECENT_CHECK_VERDICTS = [
  "insured",
  "not-insured",
  "compliant",
  "not-compliant",
  "not-found",
] as const;
export type RecentCheckVerdict = (typeof RECENT_CHECK_VERDICTS)[number];
