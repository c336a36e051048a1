// The roles in words, for the navigation, the account page and the page a role cannot use.
import { PROXY_PREFIX, ROLE_WORDS, type Role } from "@vics/shared";

export const ROLE_NAMES: Record<Role, string> = {
  staff: "Staff",
  fleet: "Fleet",
  admin: "Admin",
};

/** What needs a role above staff, as the start of a sentence. */
const NEEDS_WORDS: Record<Role, string> = {
  staff: "This",
  fleet: "Fleet checks",
  admin:
    "Managing users, the audit log, the data, its sources and alert deliveries",
};

/**
 * "Your role, staff, lets you make single insurance and compliance checks. Fleet checks need
 * the fleet role: ask an admin."
 */
export function roleRequiredWords(role: Role, needed?: Role): string {
  const lets =
    role === "admin"
      ? `Your role, admin, lets you do ${ROLE_WORDS.admin}.`
      : `Your role, ${role}, lets you make ${ROLE_WORDS[role]}.`;
  if (needed === undefined || needed === "staff")
    return `${lets} It does not let you do this: ask an admin.`;
  return `${lets} ${NEEDS_WORDS[needed]} need the ${needed} role: ask an admin.`;
}

/** The role the proxy asks for at a path, as far as the web app can tell from the path. */
export function roleNeededFor(path: string): Role | undefined {
  if (path.startsWith(`${PROXY_PREFIX}/admin/`)) return "admin";
  if (path.includes("/bulk-")) return "fleet";
  return undefined;
}
