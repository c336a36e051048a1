import { ROLE_WORDS, RETRY_AFTER_HEADER, type Role } from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import { waitWords } from "./sign-in-throttle.ts";

/** The sign-in's refusals, in words a person can act on. */
export const AUTH_PROBLEMS = {
  signInRequired: () =>
    new ProblemError(
      401,
      "SIGN_IN_REQUIRED",
      "Sign in to use VICS. If you were signed in, your session has ended.",
    ),
  /** The same words for an unknown email: they must not tell which accounts exist. */
  wrongPassword: () =>
    new ProblemError(
      401,
      "UNAUTHORIZED",
      "The email or password is not right.",
    ),
  throttled: (seconds: number) =>
    new ProblemError(
      429,
      "RATE_LIMITED",
      `Too many failed sign-ins. For your security, try again in ${waitWords(seconds)}, or ask an admin to send you a password reset.`,
      { [RETRY_AFTER_HEADER]: String(seconds) },
    ),
  passwordChangeThrottled: (seconds: number) =>
    new ProblemError(
      429,
      "RATE_LIMITED",
      `Too many wrong current passwords. For your security, try again in ${waitWords(seconds)}, or ask an admin to send you a password reset.`,
      { [RETRY_AFTER_HEADER]: String(seconds) },
    ),
  /** Too many passwords being checked at this moment (sign-in-throttle.ts's hash caps). */
  busy: (seconds: number) =>
    new ProblemError(
      429,
      "RATE_LIMITED",
      `Too many sign-ins are being checked at this moment. Try again in ${waitWords(seconds)}.`,
      { [RETRY_AFTER_HEADER]: String(seconds) },
    ),
  disabled: () =>
    new ProblemError(
      403,
      "ACCOUNT_DISABLED",
      "Your account has been disabled. Ask an admin of VICS to enable it.",
    ),
  roleRequired: (role: Role, needed: Role) =>
    new ProblemError(
      403,
      "ROLE_REQUIRED",
      `Your role, ${role}, lets you make ${ROLE_WORDS[role]}. This needs the ${needed} role: ask an admin.`,
    ),
  linkNotUsable: () =>
    new ProblemError(
      400,
      "LINK_NOT_USABLE",
      "This link has been used already or has expired. Ask an admin for a new one.",
    ),
  passwordRefused: (reason: string) =>
    new ProblemError(400, "MALFORMED_REQUEST", reason),
  /** A first password (first-password-route.ts) for an account that has one: it changes it. */
  passwordAlreadySet: () =>
    new ProblemError(
      409,
      "CONFLICT",
      "Your account has a password already. To change it, give your current password.",
    ),
  /** A first password for an account linked to the organisation's sign-in (decision 053). */
  organisationAccount: () =>
    new ProblemError(
      409,
      "CONFLICT",
      "You sign in through your organisation, so your account has no VICS password. If you need one, ask an admin to send you a password reset.",
    ),
  /**
   * A first password from a session older than FIRST_PASSWORD_WINDOW_MS (decision 053): a
   * stolen session must not become a password of the thief's choosing.
   */
  firstPasswordTooLate: (minutes: number) =>
    new ProblemError(
      403,
      "FORBIDDEN",
      `For your safety, a first password can be set only within ${minutes} minutes of signing in with a one-time link. Ask an admin for a new link (Users, Send password reset), or sign in again with a new start link.`,
    ),
  localSignInOff: () =>
    new ProblemError(
      404,
      "NOT_FOUND",
      "Signing in with a password is turned off on this server.",
    ),
};
