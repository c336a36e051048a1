// The file's bytes to text as they stream: UTF-16 when a byte-order mark says so, else the
// encoding the operator named (UTF-8 unless told otherwise). Decoding is strict, so a file
// saved as Windows-1252 and read as UTF-8 is refused at its first bad byte, never read as
// "Ã©" and imported.
import { TextDecoder } from "node:util";
import { FileRefused } from "./file-refused.ts";

export const ENCODINGS = ["utf-8", "windows-1252"] as const;
export type Encoding = (typeof ENCODINGS)[number];

function bomEncoding(head: Uint8Array): string | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return undefined;
}

const countLines = (text: string) => text.split("\n").length - 1;

/** Decodes each chunk in turn; the line count is for the message when a byte is bad. */
export async function* decodeChunks(
  chunks: AsyncIterable<Uint8Array>,
  encoding: Encoding,
): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let lines = 0;
  for await (const chunk of chunks) {
    decoder ??= new TextDecoder(bomEncoding(chunk) ?? encoding, {
      fatal: true,
    });
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw notEncoded(
        decoder.encoding,
        lines + badLine(chunk, decoder.encoding),
      );
    }
    if (text.includes("\u0000"))
      throw new FileRefused(
        lines + countLines(text.slice(0, text.indexOf("\u0000"))) + 1,
        "This line holds a NUL character: the file is not a text file. Export the records as CSV and import that.",
      );
    lines += countLines(text);
    yield text;
  }
  try {
    const rest = decoder?.decode() ?? "";
    if (rest) yield rest;
  } catch {
    throw notEncoded(decoder?.encoding ?? encoding, lines + 1);
  }
}

/** The line of the chunk that holds its first byte the encoding cannot read. */
function badLine(chunk: Uint8Array, encoding: string): number {
  const lenient = new TextDecoder(encoding).decode(chunk);
  const bad = lenient.indexOf("\uFFFD");
  return countLines(lenient.slice(0, bad < 0 ? lenient.length : bad)) + 1;
}

function notEncoded(encoding: string, line: number): FileRefused {
  const hint =
    encoding === "utf-8"
      ? " If the file was saved by Excel as plain CSV, it is Windows-1252: say so with --encoding windows-1252, or save it as CSV UTF-8."
      : "";
  return new FileRefused(
    line,
    `The text here is not ${encoding.toUpperCase()}.${hint}`,
  );
}
