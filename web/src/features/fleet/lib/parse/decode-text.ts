// Bytes of a CSV, TSV or TXT file to text. Excel writes UTF-8 with a BOM ("CSV UTF-8"),
// Windows-1252 without one ("CSV", where £ is one byte) and UTF-16 with a BOM ("Unicode
// Text"), so all three are read; then the text is checked for what a list never holds.
import { MAX_LINE_CHARS } from "./parse-failures.ts";

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder("utf-16be").decode(bytes);
  try {
    // The decoder drops a UTF-8 BOM itself.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

export type TextProblem =
  { kind: "binary" } | { kind: "long-line"; line: number } | null;

// Controls other than tab, line feed and carriage return, the C1 range Windows-1252 decodes
// stray bytes to, and the replacement character of an undecodable sequence.
function isJunk(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0xfffd
  );
}

function tooMuchJunk(junk: number, length: number): boolean {
  return junk > length / 100;
}

/**
 * Binary data decodes to text full of control characters (random bytes: about one in eight),
 * while a real list has none, or a rare stray one; a NUL never appears in text.
 */
export function textProblem(text: string): TextProblem {
  let junk = 0;
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x0a || code === 0x0d) {
      // "\r\n" is one line break.
      if (code === 0x0d && text.charCodeAt(index + 1) === 0x0a) index++;
      line++;
      lineStart = index + 1;
      continue;
    }
    if (code === 0) return { kind: "binary" };
    if (isJunk(code)) junk++;
    if (index - lineStart >= MAX_LINE_CHARS)
      return tooMuchJunk(junk, index)
        ? { kind: "binary" }
        : { kind: "long-line", line };
  }
  return tooMuchJunk(junk, text.length) ? { kind: "binary" } : null;
}
