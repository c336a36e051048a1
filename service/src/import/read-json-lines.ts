// The JSON Lines form of an import file (docs/import.md): one JSON object per line, its keys the
// kind's columns (as a CSV header names them, in any order and letter case). Each line is one
// row, reported with its line number, accepted or refused; a line too long for any record
// refuses the whole file, as in a CSV file.
import {
  columnName,
  IMPORT_COLUMNS,
  type ImportKind,
  type importRowSchemas,
  readImportRow,
} from "@vics/shared/import/rows";
import { FileRefused } from "./file-refused.ts";
import type { ReadItem } from "./read-item.ts";

const MB = 1024 * 1024;

/**
 * The text's lines as they come, with their numbers, none longer than `maxChars`. Each chunk is
 * searched once; a line's pieces are joined only when it ends, so a long line costs its length.
 */
async function* numberedLines(
  text: AsyncIterable<string>,
  firstLine: number,
  maxChars: number,
): AsyncGenerator<{ line: number; text: string }> {
  let line = firstLine;
  let pieces: string[] = [];
  let length = 0;
  // A chunk that ended in \r: a \n starting the next one is the same line break.
  let afterCarriageReturn = false;
  for await (const chunk of text) {
    let from = afterCarriageReturn && chunk.startsWith("\n") ? 1 : 0;
    afterCarriageReturn = false;
    while (from < chunk.length) {
      let end = from;
      while (end < chunk.length) {
        const code = chunk.charCodeAt(end);
        if (code === 10 || code === 13) break;
        end++;
      }
      const piece = chunk.slice(from, end);
      length += piece.length;
      if (length > maxChars)
        throw new FileRefused(
          line,
          `This line is longer than ${maxChars / MB} MB, far longer than any record: the file is damaged, or is not a JSON Lines file.`,
        );
      pieces.push(piece);
      if (end === chunk.length) break;
      yield { line, text: pieces.join("") };
      pieces = [];
      length = 0;
      line++;
      if (chunk[end] === "\r" && end + 1 === chunk.length)
        afterCarriageReturn = true;
      from = chunk.startsWith("\r\n", end) ? end + 2 : end + 1;
    }
  }
  if (length > 0) yield { line, text: pieces.join("") };
}

/** A JSON value as the cell a CSV file would hold, or why it cannot be one. */
function cellOf(value: unknown): string | { wrong: string } {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value === null) return "";
  return { wrong: JSON.stringify(value).slice(0, 100) };
}

export async function* parseJsonLines<K extends ImportKind>(
  text: AsyncIterable<string>,
  linesBefore: number,
  kind: K,
  schemas: ReturnType<typeof importRowSchemas>,
  ignored: string[],
  maxChars: number,
): AsyncGenerator<ReadItem<K>> {
  const { required, optional } = IMPORT_COLUMNS[kind];
  const known = new Set<string>([...required, ...optional]);
  const seenUnknown = new Set<string>();
  let rows = 0;
  for await (const { line, text: source } of numberedLines(
    text,
    linesBefore + 1,
    maxChars,
  )) {
    if (source.trim() === "") continue;
    rows++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(source);
    } catch {
      parsed = undefined;
    }
    if (
      parsed === null ||
      typeof parsed !== "object" ||
      Array.isArray(parsed)
    ) {
      yield {
        line,
        ok: false,
        problems: [
          {
            column: "",
            value: source.slice(0, 100),
            reason: `The line is not a JSON object. Each line holds one record, such as {"registration": "AB12CDE", ...}.`,
          },
        ],
      };
      continue;
    }
    const cells: Record<string, string> = {};
    const problems = [];
    for (const [key, value] of Object.entries(parsed)) {
      const name = columnName(key);
      if (!known.has(name)) {
        if (!seenUnknown.has(key)) ignored.push(key);
        seenUnknown.add(key);
        continue;
      }
      const cell = cellOf(value);
      if (typeof cell === "string") cells[name] = cell;
      else
        problems.push({
          column: name,
          value: cell.wrong,
          reason: `Write the ${name.replaceAll("_", " ")} as text or a number, not a list or an object.`,
        });
    }
    for (const name of required)
      if (!(name in cells) && !problems.some((p) => p.column === name))
        problems.push({
          column: name,
          value: "",
          reason: `The record has no ${name}. A ${kind} record needs ${required.join(", ")}.`,
        });
    if (problems.length > 0) {
      yield { line, ok: false, problems };
      continue;
    }
    const reading = readImportRow(schemas, kind, cells);
    yield reading.ok
      ? { line, ok: true, row: reading.row }
      : { line, ok: false, problems: reading.problems };
  }
  if (rows === 0)
    throw new FileRefused(
      0,
      `The file is empty. A ${kind} file in JSON Lines holds one record per line, such as {"registration": "AB12CDE", ...}.`,
    );
}
