// An import file, streamed: its bytes hashed and decoded, its CSV parsed (csv-parse), each row
// checked by the shared row schemas, and every row reported with the line it starts on,
// accepted or refused. A file that cannot be read past some line is refused whole
// (FileRefused): csv-parse told to skip bad records swallows every line after an unclosed
// quote, and after an over-long line, without a word (docs/decisions/040-imports.md).
import { createHash } from "node:crypto";
import { pipeline, Readable } from "node:stream";
import { CsvError, type Options, parse } from "csv-parse";
import {
  DATE_FORMAT_PATTERNS,
  type DateFormat,
  statedDateFormat,
} from "@vics/shared/import/dates";
import {
  columnName,
  IMPORT_COLUMNS,
  type ImportKind,
  importRowSchemas,
  readImportRow,
} from "@vics/shared/import/rows";
import { decodeChunks, type Encoding } from "./decode.ts";
import { FileRefused } from "./file-refused.ts";
import type { ReadItem } from "./read-item.ts";
import { parseJsonLines } from "./read-json-lines.ts";

/** No row of any kind comes near this; a longer "line" is a file that is not CSV. */
export const MAX_LINE_CHARS = 1024 * 1024;

/** CSV with a header row, or JSON Lines (one object per line, keys for columns). */
export const FILE_FORMATS = ["csv", "jsonl"] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** The form a file's name says: .jsonl or .ndjson is JSON Lines, anything else CSV. */
export const formatOfName = (name: string): FileFormat =>
  /\.(jsonl|ndjson)$/i.test(name) ? "jsonl" : "csv";

export interface ReadOptions<K extends ImportKind> {
  kind: K;
  /** Default CSV. */
  format?: FileFormat;
  /** The operator's --dates; the file's own `# dates:` line must agree with it. */
  dates?: DateFormat;
  encoding?: Encoding;
}

export interface FileFacts {
  sha256: string;
  bytes: number;
  dates: DateFormat;
  /** Header columns the kind does not have: read past, and named in the report. */
  ignoredColumns: string[];
}

interface ParsedRecord {
  line: number;
  cells: string[];
}

const LINE_BREAK = /\r\n|\n|\r/g;
const countLines = (text: string) => text.match(LINE_BREAK)?.length ?? 0;
const LEADING_BREAKS = /^(\r\n|\n|\r)+/;

/** Reads the file; `facts()` answers once every row has been read. */
export function readImportFile<K extends ImportKind>(
  source: AsyncIterable<Uint8Array>,
  options: ReadOptions<K>,
) {
  const hash = createHash("sha256");
  let bytes = 0;
  let facts: FileFacts | undefined;
  async function* hashed() {
    for await (const chunk of source) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
  }
  const state = { dates: options.dates ?? "iso", ignored: [] as string[] };
  async function* rows(): AsyncGenerator<ReadItem<K>> {
    const text = decodeChunks(hashed(), options.encoding ?? "utf-8");
    const { rest, statementLines, dates } = await takeStatement(
      text,
      options.dates,
    );
    state.dates = dates;
    yield* options.format === "jsonl"
      ? parseJsonLines(
          rest,
          statementLines,
          options.kind,
          importRowSchemas(dates),
          state.ignored,
          MAX_LINE_CHARS,
        )
      : parseRows(rest, statementLines, options.kind, dates, state.ignored);
    facts = {
      sha256: hash.digest("hex"),
      bytes,
      dates,
      ignoredColumns: state.ignored,
    };
  }
  return {
    rows: rows(),
    facts(): FileFacts {
      if (!facts) throw new Error("The file has not been read to its end");
      return facts;
    },
  };
}

/** The file's first line when it states the date format (`# dates: DD/MM/YYYY`). */
async function takeStatement(
  text: AsyncGenerator<string>,
  option: DateFormat | undefined,
): Promise<{
  rest: AsyncIterable<string>;
  statementLines: number;
  dates: DateFormat;
}> {
  // next() by hand: leaving a for-await early would close the generator for the parser.
  let head = "";
  while (!/[\r\n]/.test(head) && head.length <= MAX_LINE_CHARS) {
    const chunk = await text.next();
    if (chunk.done) break;
    head += chunk.value;
  }
  const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? "";
  const stated = statedDateFormat(firstLine);
  const after = (skip: string) =>
    (async function* () {
      if (skip) yield skip;
      yield* text;
    })();
  if (stated === undefined)
    return { rest: after(head), statementLines: 0, dates: option ?? "iso" };
  if (typeof stated === "object")
    throw new FileRefused(
      1,
      `The first line names a date format we do not know ("${stated.unknown}"). Write "# dates: DD/MM/YYYY" or "# dates: YYYY-MM-DD".`,
    );
  if (option !== undefined && option !== stated)
    throw new FileRefused(
      1,
      `The file says its dates are ${DATE_FORMAT_PATTERNS[stated]}, but --dates says ${DATE_FORMAT_PATTERNS[option]}. Check which is right and say it once.`,
    );
  const rest = head.slice(firstLine.length).replace(/^(\r\n|\n|\r)/, "");
  return { rest: after(rest), statementLines: 1, dates: stated };
}

async function* parseRows<K extends ImportKind>(
  text: AsyncIterable<string>,
  linesBefore: number,
  kind: K,
  dates: DateFormat,
  ignored: string[],
): AsyncGenerator<ReadItem<K>> {
  const schemas = importRowSchemas(dates);
  // Lines are counted as csv-parse reads each record (on_record), not as the loop below takes
  // them: when the parser fails, the records it had read but not yet handed over are dropped,
  // and the failing record starts on the line after the last one it read.
  let parsed = linesBefore;
  interface Parsed {
    record: string[];
    raw: string;
  }
  const options: Options<ParsedRecord, Parsed> = {
    raw: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    max_record_size: MAX_LINE_CHARS,
    // With raw, csv-parse hands on_record the record and its text together.
    on_record: ({ record, raw }) => {
      const line = parsed + 1 + countLines(LEADING_BREAKS.exec(raw)?.[0] ?? "");
      parsed += countLines(raw);
      return { line, cells: record };
    },
  };
  // csv-parse types a typed on_record only together with `columns`, which this reader does
  // itself (readHeader), so its options go in as the untyped form.
  const parser = parse(options as unknown as Options);
  // pipeline, not pipe: a decoding failure must end the parser with that failure.
  pipeline(Readable.from(text), parser, () => {});
  let header: string[] | undefined;
  try {
    for await (const { line, cells } of parser as AsyncIterable<ParsedRecord>) {
      if (!header) {
        header = readHeader(cells, kind, line, ignored);
        continue;
      }
      yield readRecord(schemas, kind, header, cells, line);
    }
  } catch (error) {
    throw error instanceof CsvError ? csvRefusal(error, parsed + 1) : error;
  }
  if (!header)
    throw new FileRefused(
      0,
      `The file is empty. A ${kind} file starts with a header row: ${columnList(kind)}.`,
    );
}

function columnList(kind: ImportKind): string {
  const { required, optional } = IMPORT_COLUMNS[kind];
  return [...required, ...optional.map((name) => `${name} (optional)`)].join(
    ", ",
  );
}

function readHeader(
  cells: readonly string[],
  kind: ImportKind,
  line: number,
  ignored: string[],
): string[] {
  const names = cells.map(columnName);
  const { required, optional } = IMPORT_COLUMNS[kind];
  const known = new Set<string>([...required, ...optional]);
  const repeated = names.find(
    (name, index) => known.has(name) && names.indexOf(name) !== index,
  );
  if (repeated)
    throw new FileRefused(
      line,
      `The header names the column ${repeated} twice, so we cannot tell which one to read. Keep one.`,
    );
  const missing = required.filter((name) => !names.includes(name));
  if (missing.length > 0)
    throw new FileRefused(
      line,
      `The header has no ${missing.join(", ")} column. A ${kind} file needs these columns, in any order: ${columnList(kind)}. Its header is: ${cells.join(", ")}.`,
    );
  ignored.push(...cells.filter((_, index) => !known.has(names[index] ?? "")));
  return names;
}

function readRecord<K extends ImportKind>(
  schemas: ReturnType<typeof importRowSchemas>,
  kind: K,
  header: readonly string[],
  record: readonly string[],
  line: number,
): ReadItem<K> {
  if (record.length !== header.length)
    return {
      line,
      ok: false,
      problems: [
        {
          column: "",
          value: record.join(",").slice(0, 100),
          reason: `The row has ${record.length} cells and the header has ${header.length}: check for a missing or extra comma.`,
        },
      ],
    };
  const cells: Record<string, string> = {};
  header.forEach((name, index) => {
    cells[name] = record[index] ?? "";
  });
  const reading = readImportRow(schemas, kind, cells);
  return reading.ok
    ? { line, ok: true, row: reading.row }
    : { line, ok: false, problems: reading.problems };
}

const MB = MAX_LINE_CHARS / (1024 * 1024);

/** csv-parse's error, as the line it starts on and what to do about it. */
function csvRefusal(error: CsvError, line: number): FileRefused {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new FileRefused(
        line,
        `A quote mark (") opens a value on this line and is never closed, so no line after it can be told apart. Close the quote, or remove it.`,
      );
    case "CSV_MAX_RECORD_SIZE":
      return new FileRefused(
        line,
        `This line is longer than ${MB} MB, far longer than any record: the file is damaged, or is not a CSV file.`,
      );
    case "CSV_INVALID_CLOSING_QUOTE":
      return new FileRefused(
        line,
        `A quoted value on this line has more text after its closing quote. Quote the whole value, or remove the quotes.`,
      );
    default:
      return new FileRefused(
        line,
        `The file cannot be read as CSV from this line: ${error.message}.`,
      );
  }
}
