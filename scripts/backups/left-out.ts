// What a backup leaves out of the proxy's store (docs/decisions/068-backups-leave-sessions-out.md):
// the tables stay, their rows do not, so a restore brings back no session, no unused one-time
// link and no OIDC sign-in under way.
import type { LeftOut } from "./manifest.ts";

export const LEFT_OUT_TABLES: Record<keyof LeftOut, string> = {
  sessions: "sessions",
  oneTimeLinks: "one_time_links",
  oidcLogins: "oidc_logins",
};

export const noneLeftOut = (): LeftOut => ({
  sessions: 0,
  oneTimeLinks: 0,
  oidcLogins: 0,
});
