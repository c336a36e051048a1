// What the review says about how the list was read, beyond its rows: totals and notes left out
// under an uploaded list, and what was taken from each line of a paste.
import type { SourceTable } from "../lib/fleet-types.ts";
import { PastedLines } from "./pasted-lines.tsx";
import { RowsBelow } from "./rows-below.tsx";

export function InputNotes({ table }: { table: SourceTable }) {
  return (
    <>
      <RowsBelow table={table} />
      <PastedLines table={table} />
    </>
  );
}
