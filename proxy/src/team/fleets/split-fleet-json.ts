// A fleet's list as text, split so that no one step parses all of it: the object around the
// vehicles (its "head", with the vehicles taken out) and where each vehicle is, found by a scan
// that lets the event loop turn between slices. JSON.parse of 24 MB in one call takes hundreds
// of milliseconds, in which the proxy answers no one.
import { setImmediate as nextTurn } from "node:timers/promises";

/** Characters scanned between turns of the event loop: about a millisecond's work. */
const SCAN_SLICE = 64 * 1024;

export interface SplitFleetJson {
  /** The text with the vehicles' list emptied (`"vehicles":[]`), or all of it when there is none. */
  head: string;
  /** Each vehicle's text: [start, end) in the original text, in order. */
  starts: number[];
  ends: number[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const isSpace = (code: number) =>
  code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * Splits `text` around the top-level object's "vehicles" array. Undefined when the text is not
 * an object whose vehicles are one array, each listed once: the caller then parses it whole,
 * which is as good as anything for a text that is not a list (its answer is a refusal).
 */
export async function splitFleetJson(
  text: string,
): Promise<SplitFleetJson | undefined> {
  let depth = 0;
  let inString = false;
  let stringStart = 0;
  /** At depth 1: the last string's text, if it may be a key (followed by ":"). */
  let lastKey: string | undefined;
  let expectingKey = false;
  let pendingVehicles = false;
  let arrayOpen = -1;
  let arrayClose = -1;
  let elementStart = -1;
  const starts: number[] = [];
  const ends: number[] = [];

  for (let i = 0; i < text.length; i++) {
    if (i % SCAN_SLICE === 0 && i > 0) await nextTurn();
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) {
        inString = false;
        if (depth === 1 && expectingKey) {
          try {
            lastKey = JSON.parse(text.slice(stringStart, i + 1)) as string;
          } catch {
            return undefined;
          }
        }
      }
      continue;
    }
    if (code === QUOTE) {
      inString = true;
      stringStart = i;
      continue;
    }
    if (isSpace(code)) continue;
    if (pendingVehicles) {
      pendingVehicles = false;
      if (code !== OPEN_BRACKET) return undefined;
      if (arrayOpen !== -1) return undefined; // listed twice: which one would count?
      arrayOpen = i;
      elementStart = i + 1;
      depth++;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === 0 && (code !== OPEN_BRACE || i !== firstNonSpace(text)))
        return undefined;
      depth++;
      if (depth === 1) expectingKey = true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (
        depth === 2 &&
        arrayClose === -1 &&
        arrayOpen !== -1 &&
        i > arrayOpen
      ) {
        if (code !== CLOSE_BRACKET) return undefined;
        arrayClose = i;
        // "[ ]" holds no vehicle; "[a, ]" ends with an empty one, which the parse refuses.
        if (starts.length > 0 || text.slice(elementStart, i).trim() !== "") {
          starts.push(elementStart);
          ends.push(i);
        }
      }
      depth--;
      if (depth < 0) return undefined;
    } else if (code === COLON && depth === 1) {
      expectingKey = false;
      pendingVehicles = lastKey === "vehicles";
      lastKey = undefined;
    } else if (code === COMMA) {
      if (depth === 1) expectingKey = true;
      else if (depth === 2 && arrayOpen !== -1 && arrayClose === -1) {
        starts.push(elementStart);
        ends.push(i);
        elementStart = i + 1;
      }
    }
  }
  if (arrayOpen === -1) return { head: text, starts, ends };
  if (arrayClose === -1) return undefined;
  return {
    head: text.slice(0, arrayOpen + 1) + text.slice(arrayClose),
    starts,
    ends,
  };
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}
