// One pasted line to the registrations in it, as people write lists in emails and documents:
// "- AB12 CDE", "1. AB12 CDE", "Reg: AB12 CDE", "AB12 CDE – driver says paid",
// "AB12 CDE / CD34 EFG", "AB12 CDE and cd34efg", "AB12 CDE (Transit, Leeds)". Each is taken as
// written, so the review shows the user's own text. The rules and why:
// docs/decisions/023-reading-fleet-input.md.
import { isValidRegistration, normaliseRegistration } from "@vics/shared";

/** A bullet or a number in front of the line: "-", "*", "•", "1.", "2)", "(3)", "a)". */
const BULLET = /^(?:[-*•·▪◦‣>–—]+\s*|\(?\d{1,3}[.):\]]\s*|\(?[a-z][.)]\s+)/i;
/** A dash with space either side starts a note: "AB12 CDE – driver says paid". */
const NOTE = /\s[-–—]+\s/;
const BRACKETS = /\([^()]*\)|\[[^[\]]*\]/g;
/** Between items of a list: , ; tab / | & + and the words "and", "or". */
const SEPARATOR = /[,;\t/|&+]|\s(?:and|or)\s/i;
/** A label in front of an item: "Reg:", "Registration number:", "Van 14:". */
const LABEL = /^[^:]{1,30}:\s*/;
/**
 * Dated plates (current, prefix, suffix) inside longer text. Dateless ones are only taken as
 * an item on their own: "2pm", "Q4" and "30th" are dateless plates too.
 */
const DATED =
  /(?<![A-Za-z0-9])(?:[A-Za-z]{2}\d{2}[ -]?[A-Za-z]{3}|[A-Za-z]\d{1,3}[ -]?[A-Za-z]{3}|[A-Za-z]{3}[ -]?\d{1,3}[A-Za-z])(?![A-Za-z0-9])/g;

export interface LineReading {
  /** Registrations found, and list items that look like a mistyped one, as written. */
  taken: string[];
  /** What the row holds when nothing was found: the likely attempt at a plate, or the line. */
  whole: string;
}

function dated(text: string): string[] {
  return [...text.matchAll(DATED)]
    .map((match) => match[0])
    .filter((plate) => isValidRegistration(plate));
}

/** One word with a digit, as long as a plate or a little longer: meant as one, mistyped. */
function mistypedPlate(item: string): boolean {
  return (
    !/\s/.test(item) &&
    /[0-9]/.test(item) &&
    /[A-Za-z]/.test(item) &&
    normaliseRegistration(item).length <= 10
  );
}

function cleanItem(item: string): string {
  const unlabelled = item.trim().replace(LABEL, "");
  return unlabelled.replace(/[.,:]+$/, "").trim();
}

export function readPastedLine(line: string): LineReading {
  const text = line.trim();
  const unbulleted = text.replace(BULLET, "");
  const noteAt = unbulleted.search(NOTE);
  const body = noteAt < 0 ? unbulleted : unbulleted.slice(0, noteAt);
  const note = noteAt < 0 ? "" : unbulleted.slice(noteAt);
  const bracketed = body.match(BRACKETS) ?? [];
  const items = body
    .replace(BRACKETS, ",")
    .split(SEPARATOR)
    .map(cleanItem)
    .filter((item) => item !== "");
  const taken: string[] = [];
  const attempts: string[] = [];
  for (const item of items) {
    if (isValidRegistration(item)) taken.push(item);
    else {
      const found = dated(item);
      if (found.length > 0) taken.push(...found);
      else if (items.length > 1 && mistypedPlate(item)) attempts.push(item);
    }
  }
  // Brackets and notes are the user's asides, but a plate in them is still a plate.
  for (const aside of [...bracketed, note]) taken.push(...dated(aside));
  if (taken.length > 0)
    return { taken: ordered(items, taken, attempts), whole: text };
  const [first] = items;
  const attempt =
    first !== undefined &&
    items.length === 1 &&
    mistypedPlate(first.replace(/\s/g, ""));
  return { taken: [], whole: attempt ? first : text };
}

/** Valid and mistyped items in the order they were written. */
function ordered(
  items: string[],
  taken: string[],
  attempts: string[],
): string[] {
  if (attempts.length === 0) return taken;
  const position = (value: string) => {
    const index = items.findIndex((item) => item.includes(value));
    return index < 0 ? items.length : index;
  };
  return [...taken, ...attempts].sort((a, b) => position(a) - position(b));
}
