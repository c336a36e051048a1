// An uploaded file to a SourceTable, or a ParseFailure that says what to do. The name says
// which files we accept; the bytes say how to read one (a CSV saved as .xlsx is still read).
// Never throws and never runs unbounded: every input is capped before it is read.
import type { ParseFailure, SourceTable } from "../fleet-types.ts";
import { buildTable } from "./build-table.ts";
import { decodeText, textProblem } from "./decode-text.ts";
import { parseDelimited } from "./parse-delimited.ts";
import { MAX_FILE_BYTES, parseFailures } from "./parse-failures.ts";
import { parseXlsx } from "./parse-xlsx.ts";
import { workbookTable } from "./workbook-table.ts";
import { compoundFileFailure, fileExtension, sniffFile } from "./sniff-file.ts";

/** .xls is accepted only to say how to convert it. */
const EXTENSIONS = new Set(["csv", "tsv", "txt", "xlsx", "xls"]);

/** `sheet`: in a workbook, the sheet to read by name; without it, the one holding registrations. */
export async function parseFile(
  name: string,
  bytes: ArrayBuffer,
  sheet?: string,
): Promise<SourceTable | ParseFailure> {
  try {
    return await readFile(name, bytes, sheet);
  } catch {
    // A reader's bug or an exhausted allocation: still an answer, never a dead worker.
    return parseFailures.unreadable("file");
  }
}

async function readFile(
  name: string,
  bytes: ArrayBuffer,
  sheet?: string,
): Promise<SourceTable | ParseFailure> {
  const extension = fileExtension(name);
  if (!EXTENSIONS.has(extension)) return parseFailures.unsupportedType(name);
  if (bytes.byteLength > MAX_FILE_BYTES)
    return parseFailures.fileTooLarge(bytes.byteLength);
  if (bytes.byteLength === 0) return parseFailures.emptyFile();
  const view = new Uint8Array(bytes);
  switch (sniffFile(view)) {
    case "zip": {
      const sheets = await parseXlsx(bytes);
      return "code" in sheets ? sheets : workbookTable(name, sheets, sheet);
    }
    case "compound":
      return compoundFileFailure(view, extension);
    case "binary":
      return parseFailures.notASpreadsheet();
    case "text": {
      // Some systems export an HTML page or text as ".xls"; Excel can convert those too.
      if (extension === "xls") return parseFailures.oldExcel();
      const text = decodeText(view);
      const problem = textProblem(text);
      if (problem?.kind === "binary") return parseFailures.notASpreadsheet();
      if (problem?.kind === "long-line")
        return parseFailures.lineTooLong(problem.line);
      if (text.trim() === "") return parseFailures.emptyFile();
      const rows = parseDelimited(text, extension === "tsv");
      return "code" in rows ? rows : buildTable(name, rows);
    }
  }
}
