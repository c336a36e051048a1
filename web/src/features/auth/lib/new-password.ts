// The rule for a new password, as the proxy has it: 12 characters or more, nothing else. The
// proxy also refuses common ones; its reason comes back in words.
import type { FieldError } from "../../../components/error-summary.tsx";
import { isApiError } from "@vics/shared";
import { tooManyTries } from "./sign-in-errors.ts";

export const PASSWORD_MIN_LENGTH = 12;

export const NEW_PASSWORD_HINT = `Use ${PASSWORD_MIN_LENGTH} characters or more. There are no other rules: a few words you will remember are a good choice.`;

/** The fields' ids: one form sets a password at a time. */
export const NEW_PASSWORD_IDS = {
  password: "new-password",
  confirmation: "confirm-password",
};

export function newPasswordErrors(
  password: string,
  confirmation: string,
): FieldError[] {
  const ids = NEW_PASSWORD_IDS;
  if (password === "")
    return [{ fieldId: ids.password, message: "Enter a new password" }];
  if ([...password].length < PASSWORD_MIN_LENGTH)
    return [
      {
        fieldId: ids.password,
        message: `Your password must be ${PASSWORD_MIN_LENGTH} characters or more`,
      },
    ];
  if (confirmation !== password)
    return [
      {
        fieldId: ids.confirmation,
        message:
          confirmation === ""
            ? "Enter your new password again"
            : "The passwords do not match",
      },
    ];
  return [];
}

/** Why the proxy refused a new password, in its own words when it gave them. */
export function passwordRefusal(error: unknown): string {
  if (!isApiError(error)) return "The password could not be saved. Try again.";
  if (error.code === "MALFORMED_REQUEST" && error.detail) return error.detail;
  // A first password: the account has one now, or signs in through its organisation (CONFLICT);
  // too long after the link's sign-in, with how to get a new link (FORBIDDEN).
  if (error.code === "CONFLICT") return error.detail;
  if (error.code === "FORBIDDEN" && error.detail) return error.detail;
  // The proxy's own words say what was counted (wrong current passwords, or busy) and how long.
  if (error.code === "RATE_LIMITED")
    return error.detail || tooManyTries(error.retryAfterSeconds);
  if (error.code === "NETWORK")
    return "VICS could not be reached. Check your network connection, then try again.";
  return "The password could not be saved. Try again in a moment.";
}
