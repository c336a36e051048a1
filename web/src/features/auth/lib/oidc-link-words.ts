// How linking the organisation sign-in went: the proxy sends the browser back to
// "/account?oidc-link=<outcome>" (linked, or a refusal: failed, linked-elsewhere, email-differs,
// already-linked).
const REFUSED: Record<string, string> = {
  failed:
    "Linking your organisation sign-in did not finish: it took too long, or you were signed out of VICS meanwhile. Try again.",
  "linked-elsewhere":
    "That organisation sign-in is linked to another VICS account. Ask an admin of VICS to unlink it there first.",
  "email-differs":
    "That organisation sign-in is not for your VICS email address. Sign in to your organisation as yourself, then link again.",
  "already-linked":
    "Your account is linked to another organisation sign-in already. Unlink it first, then link the new one.",
};

export type LinkOutcome =
  { linked: true; words: string } | { linked: false; words: string };

/** The words for the address's `oidc-link` outcome; undefined when there is none. */
export function oidcLinkOutcome(
  outcome: string | null,
): LinkOutcome | undefined {
  if (outcome === null) return undefined;
  if (outcome === "linked")
    return {
      linked: true,
      words:
        "Your organisation sign-in is linked: you can sign in with it from now on.",
    };
  return {
    linked: false,
    words: Object.hasOwn(REFUSED, outcome)
      ? REFUSED[outcome]!
      : "Your organisation sign-in could not be linked. Try again.",
  };
}
