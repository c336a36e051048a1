// What the page asks the parser, and what it answers: the messages between parse-client and
// parse-worker, and the one function that does the work wherever it runs.
import type { ParseFailure, SourceTable } from "../fleet-types.ts";
import { parseFile } from "./parse-file.ts";
import { parseFailures } from "./parse-failures.ts";
import { parsePaste } from "./parse-paste.ts";

export type ParseRequest =
  | { kind: "paste"; text: string }
  | { kind: "file"; name: string; bytes: ArrayBuffer; sheet?: string };

export type ParseResponse =
  { ok: true; table: SourceTable } | { ok: false; failure: ParseFailure };

export async function runParse(request: ParseRequest): Promise<ParseResponse> {
  try {
    const result =
      request.kind === "paste"
        ? parsePaste(request.text)
        : await parseFile(request.name, request.bytes, request.sheet);
    return "code" in result
      ? { ok: false, failure: result }
      : { ok: true, table: result };
  } catch {
    return { ok: false, failure: parseFailures.unreadable(request.kind) };
  }
}
