// What a file is, from its first bytes rather than its name alone: people rename files, and
// a fuzzer names random bytes ".xlsx".
import type { ParseFailure } from "../fleet-types.ts";
import { parseFailures } from "./parse-failures.ts";

export type FileKind = "zip" | "compound" | "binary" | "text";

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((byte, index) => bytes[index] === byte);

const ZIP = [0x50, 0x4b, 0x03, 0x04]; // "PK\3\4"
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];
// The OLE compound file: old Excel (.xls), and the wrapper Excel puts round an encrypted .xlsx.
const COMPOUND = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
// Files people pick by mistake that could pass for text in their first bytes.
const OTHER_BINARIES = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // "%PDF-"
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // "GIF8"
  [0x1f, 0x8b], // gzip
  [0x37, 0x7a, 0xbc, 0xaf], // 7-Zip
  [0x52, 0x61, 0x72, 0x21], // "Rar!"
];

export function sniffFile(bytes: Uint8Array): FileKind {
  if (startsWith(bytes, ZIP) || startsWith(bytes, EMPTY_ZIP)) return "zip";
  if (startsWith(bytes, COMPOUND)) return "compound";
  if (OTHER_BINARIES.some((signature) => startsWith(bytes, signature)))
    return "binary";
  return "text";
}

/** "report.CSV" -> "csv"; "" when the name has no extension. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

function utf16(text: string): number[] {
  return [...text].flatMap((char) => [char.charCodeAt(0), 0]);
}

/** Whether a stream name (UTF-16 in the compound file's directory) is in the file. */
function hasStreamName(bytes: Uint8Array, name: string): boolean {
  const pattern = utf16(name);
  const first = pattern[0] ?? 0;
  for (
    let at = bytes.indexOf(first);
    at >= 0 && at + pattern.length <= bytes.length;
    at = bytes.indexOf(first, at + 1)
  ) {
    if (pattern.every((byte, index) => bytes[at + index] === byte)) return true;
  }
  return false;
}

/**
 * A compound file is either an encrypted workbook (its "EncryptedPackage" stream holds the
 * real .xlsx) or an old .xls (a "Workbook" or "Book" stream). Excel only writes a compound
 * file under an .xlsx name when it encrypts one, so that is the reading when neither is found.
 */
export function compoundFileFailure(
  bytes: Uint8Array,
  extension: string,
): ParseFailure {
  if (hasStreamName(bytes, "EncryptedPackage"))
    return parseFailures.protected();
  if (hasStreamName(bytes, "Workbook") || hasStreamName(bytes, "Book"))
    return parseFailures.oldExcel();
  if (extension === "xlsx") return parseFailures.protected();
  if (extension === "xls") return parseFailures.oldExcel();
  return parseFailures.notASpreadsheet();
}
