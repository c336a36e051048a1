/**
 * UK registration numbers, as docs/contract.md decides: normalise (trim, drop spaces and
 * hyphens, upper-case), then accept only the DVLA formats below.
 */

export type RegistrationFormat = "current" | "prefix" | "suffix" | "dateless";

export type RegistrationProblem =
  "empty" | "invalid_characters" | "too_long" | "too_short" | "unknown_format";

export type ParsedRegistration =
  | { ok: true; registration: string; format: RegistrationFormat }
  | { ok: false; problem: RegistrationProblem; message: string };

export const REGISTRATION_MIN_LENGTH = 2;
export const REGISTRATION_MAX_LENGTH = 7;

// Each pattern captures the two halves that DVLA spacing puts a space between.
const FORMATS: ReadonlyArray<{ format: RegistrationFormat; pattern: RegExp }> =
  [
    { format: "current", pattern: /^([A-Z]{2}[0-9]{2})([A-Z]{3})$/ },
    { format: "prefix", pattern: /^([A-Z][0-9]{1,3})([A-Z]{3})$/ },
    { format: "suffix", pattern: /^([A-Z]{3})([0-9]{1,3}[A-Z])$/ },
    { format: "dateless", pattern: /^([A-Z]{1,3})([0-9]{1,4})$/ },
    { format: "dateless", pattern: /^([0-9]{1,4})([A-Z]{1,3})$/ },
  ];

const PROBLEM_MESSAGES: Record<RegistrationProblem, string> = {
  empty: "Enter a registration number",
  invalid_characters:
    "Registration must only include letters A to Z and numbers 0 to 9",
  too_long: `Registration must be ${REGISTRATION_MAX_LENGTH} characters or fewer`,
  too_short: `Registration must be at least ${REGISTRATION_MIN_LENGTH} characters`,
  unknown_format: "Enter a registration in a UK format, like AB12 CDE",
};

/**
 * Only a-z is upper-cased: String#toUpperCase would turn "ß" into "SS" and "ı" into "I", so
 * text holding letters that are not A to Z could pass as a plate it never spelled.
 */
export function normaliseRegistration(text: string): string {
  return text
    .replace(/[\s-]+/g, "")
    .replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

function matchFormat(registration: string) {
  for (const { format, pattern } of FORMATS) {
    const match = pattern.exec(registration);
    if (match) return { format, halves: [match[1] ?? "", match[2] ?? ""] };
  }
  return undefined;
}

export function parseRegistration(text: string): ParsedRegistration {
  const registration = normaliseRegistration(text);
  const fail = (problem: RegistrationProblem): ParsedRegistration => ({
    ok: false,
    problem,
    message: PROBLEM_MESSAGES[problem],
  });
  if (registration === "") return fail("empty");
  if (!/^[A-Z0-9]+$/.test(registration)) return fail("invalid_characters");
  if (registration.length > REGISTRATION_MAX_LENGTH) return fail("too_long");
  if (registration.length < REGISTRATION_MIN_LENGTH) return fail("too_short");
  const matched = matchFormat(registration);
  if (!matched) return fail("unknown_format");
  return { ok: true, registration, format: matched.format };
}

export function isValidRegistration(text: string): boolean {
  return parseRegistration(text).ok;
}

/** DVLA display spacing ("AB12 CDE"); input that is not a valid registration is returned normalised. */
export function formatRegistration(text: string): string {
  const registration = normaliseRegistration(text);
  const matched = matchFormat(registration);
  return matched ? matched.halves.join(" ") : registration;
}

const LOOKALIKES: Record<string, string> = {
  O: "0",
  "0": "O",
  I: "1",
  "1": "I",
};

/**
 * Valid registrations that differ from the given one only by O/0 and I/1 swaps: the
 * usual misreadings of a plate. Nearest (fewest swaps) first. None for text of digits alone
 * or letters alone ("12345" is a fleet number): every plate has both, so a swap that invents
 * the missing kind is a guess, not a misreading.
 */
export function lookalikeRegistrations(text: string, limit = 5): string[] {
  const registration = normaliseRegistration(text);
  if (/^(?:[0-9]*|[A-Z]*)$/.test(registration)) return [];
  // A swap keeps the length, so longer text has no valid look-alike; and the search below
  // tries 2^n combinations, which must stay at 2^7 (30 O's and 0's would be a billion).
  if (registration.length > REGISTRATION_MAX_LENGTH) return [];
  const positions = [...registration]
    .map((char, index) => (char in LOOKALIKES ? index : -1))
    .filter((index) => index >= 0);
  const found: Array<{ registration: string; swaps: number }> = [];
  for (let mask = 1; mask < 1 << positions.length; mask++) {
    const chars = [...registration];
    let swaps = 0;
    positions.forEach((position, bit) => {
      if (mask & (1 << bit)) {
        chars[position] = LOOKALIKES[chars[position] ?? ""] ?? "";
        swaps++;
      }
    });
    const candidate = chars.join("");
    if (isValidRegistration(candidate))
      found.push({ registration: candidate, swaps });
  }
  return found
    .sort((a, b) => a.swaps - b.swaps)
    .slice(0, limit)
    .map((entry) => entry.registration);
}
