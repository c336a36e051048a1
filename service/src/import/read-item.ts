// One row of an import file as the readers report it: accepted with its row, or refused with its
// problems, and the line it starts on. Its own module because read-rows.ts hands JSON Lines files
// to read-json-lines.ts and both report rows this way: here, neither imports the other for it.
import type {
  ImportKind,
  ImportRow,
  RowProblem,
} from "@vics/shared/import/rows";

export type ReadItem<K extends ImportKind> =
  | { line: number; ok: true; row: ImportRow<K> }
  | { line: number; ok: false; problems: RowProblem[] };
