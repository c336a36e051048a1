// Which of a rule's addresses are outside the team: an address is the team's when its domain is
// one of the team's email domains or a subdomain of one. The team's domains are
// ALERT_EMAIL_DOMAINS when set, else the domains of the team's own accounts (docs/watching.md,
// "Alert rules"). A fleet user may keep such an address, but only an admin adds one, and a
// rule names at most ALERT_RULE_MAX_EXTERNAL_EMAILS of them: a storm cannot be mailed to a list.
import { ProblemError } from "@vics/server-kit/problem-error";

export interface AlertEmailPolicy {
  /** ALERT_EMAIL_DOMAINS; undefined: the domains of the team's accounts. */
  domains?: readonly string[];
  /** ALERT_RULE_MAX_EXTERNAL_EMAILS: the most addresses outside them one rule may name. */
  maxExternal: number;
}

export const DEFAULT_MAX_EXTERNAL_EMAILS = 5;

export const DEFAULT_ALERT_EMAIL_POLICY: AlertEmailPolicy = {
  maxExternal: DEFAULT_MAX_EXTERNAL_EMAILS,
};

const domainOf = (email: string) =>
  email.slice(email.lastIndexOf("@") + 1).toLowerCase();

/** The domains of these accounts' addresses, each once, in order. */
export const accountDomains = (emails: readonly string[]): string[] => [
  ...new Set(emails.map(domainOf)),
];

/** The addresses outside the team's domains (a team domain's subdomains are the team's). */
export function externalAddresses(
  emails: readonly string[],
  domains: readonly string[],
): string[] {
  return emails.filter((email) => {
    const domain = domainOf(email);
    return !domains.some(
      (team) => domain === team || domain.endsWith(`.${team}`),
    );
  });
}

const listed = (items: readonly string[]) => items.join(", ");

/**
 * Refuses, in words, a rule naming more addresses outside the team's domains than the policy
 * allows (400, anyone), or adding one that `before` did not name unless the user is an admin
 * (403): a fleet user is told that an admin must add it.
 */
export function checkExternalAddresses(
  emails: readonly string[],
  before: readonly string[],
  team: { domains: readonly string[]; maxExternal: number; admin: boolean },
): void {
  const external = externalAddresses(emails, team.domains);
  const domains =
    team.domains.length > 0
      ? `the team's email domains (${listed(team.domains)})`
      : "the team's email domains (none is known yet)";
  if (external.length > team.maxExternal)
    throw new ProblemError(
      400,
      "MALFORMED_REQUEST",
      `A fleet's alerts may go to at most ${team.maxExternal} addresses outside ${domains}; this rule names ${external.length}: ${listed(external)}. Remove some, or send to one team address that forwards them.`,
    );
  const added = external.filter((email) => !before.includes(email));
  if (added.length > 0 && !team.admin)
    throw new ProblemError(
      403,
      "FORBIDDEN",
      `${listed(added)} ${added.length === 1 ? "is" : "are"} outside ${domains}: an admin must add ${added.length === 1 ? "it" : "them"}. Ask an admin, or use an address of the team's.`,
    );
}
