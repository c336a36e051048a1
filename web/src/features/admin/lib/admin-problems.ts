// A refused or failed admin request in words: the proxy's own reason where it gives one (the
// last active admin cannot be disabled, an email is taken), else what to do next.
import { type Role, isApiError } from "@vics/shared";
import { roleRequiredWords } from "../../../lib/roles.ts";

export function adminProblemWords(error: unknown, role?: Role): string {
  if (!isApiError(error)) return "Something went wrong. Try again.";
  switch (error.code) {
    case "MALFORMED_REQUEST":
    case "NOT_FOUND":
      return error.detail;
    case "ROLE_REQUIRED":
      return role
        ? roleRequiredWords(role, "admin")
        : "Your role does not let you do this: ask an admin.";
    case "NETWORK":
      return "VICS could not be reached. Check your network connection, then try again.";
    case "RATE_LIMITED":
      return "Too many requests just now. Wait a minute, then try again.";
    default:
      return `VICS could not do this just now. Try again in a moment.${
        error.requestId ? ` Reference: ${error.requestId}.` : ""
      }`;
  }
}
