// Why the organisation's sign-in did not sign someone in: the proxy sends the browser back to
// "/sign-in?oidc=<reason>" (its reasons: failed, email-not-verified, no-account, disabled,
// linked-elsewhere, link-needed, unavailable), and the page says it in words with what to do next.
const WORDS: Record<string, string> = {
  failed:
    "Signing in through your organisation did not finish: it took too long, or was started in another tab. Try again.",
  "email-not-verified":
    "Your organisation did not confirm your email address, so VICS cannot tell who you are. Ask your IT team, or ask an admin of VICS for an invitation.",
  "no-account":
    "There is no VICS account for the email address your organisation gave. Ask an admin of VICS to invite you.",
  disabled:
    "Your account has been disabled. Ask an admin of VICS to enable it.",
  "linked-elsewhere":
    "Your VICS account is linked to a different sign-in of your organisation. Ask an admin of VICS.",
  "link-needed":
    "Your VICS account is already in use, so your organisation sign-in is not linked to it by your email alone. Sign in as you usually do, then link your organisation sign-in on your account page, or ask an admin of VICS.",
  unavailable:
    "VICS cannot reach your organisation’s sign-in service yet. It keeps trying: try again in a minute, and if it lasts, tell your IT team.",
};

/** The words for the address's `oidc` reason; undefined when there is none. */
export function oidcRefusalWords(reason: string | null): string | undefined {
  if (reason === null) return undefined;
  return Object.hasOwn(WORDS, reason)
    ? WORDS[reason]
    : "VICS could not sign you in through your organisation. Try again.";
}
