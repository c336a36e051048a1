// The browser URLs of each view, so shared components can link to a feature without importing it.
export const appPaths = {
  home: () => "/",
  insurance: (registration: string) =>
    `/vehicle/${encodeURIComponent(registration)}`,
  compliance: (registration?: string) =>
    registration === undefined
      ? "/compliance"
      : `/compliance/${encodeURIComponent(registration)}`,
  fleet: () => "/fleet",
  /** The sign-in page; after signing in the browser returns to `returnTo` (a path on this site). */
  signIn: (returnTo?: string) =>
    returnTo === undefined || returnTo === "/"
      ? "/sign-in"
      : `/sign-in?${new URLSearchParams({ returnTo }).toString()}`,
  signInLink: () => "/sign-in/link",
  setPassword: () => "/account/set-password",
  account: () => "/account",
  /** The confirmation before signing out; `everywhere` ends every session of the user. */
  signOut: (everywhere = false) =>
    everywhere ? "/sign-out?everywhere=yes" : "/sign-out",
  users: () => "/admin/users",
  audit: (search = "") => `/admin/audit${search}`,
  data: () => "/admin/data",
} as const;
