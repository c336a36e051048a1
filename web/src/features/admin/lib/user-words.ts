// A user's state and ways of signing in, in words for the users table.
import type { AdminUser } from "@vics/shared";

export const STATE_WORDS: Record<AdminUser["state"], string> = {
  active: "Active",
  invited: "Invited",
  disabled: "Disabled",
};

export function signInWords(user: AdminUser): string {
  const password = user.signsInWith.includes("password");
  const provider = user.signsInWith.includes("oidc");
  if (password && provider) return "Password and organisation sign-in";
  if (password) return "Password";
  if (provider) return "Organisation sign-in";
  return "Not set up yet";
}
