// The reject file: one line per problem of a refused row (its line, column, value and the
// reason in words), as a CSV that opens in Excel with no cell run as a formula: the same
// writing as the web app's fleet exports and the audit log's download (@vics/shared csv).
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { CSV_BOM, csvLines } from "@vics/shared";
import type { RejectLine } from "../store/import-store.ts";

export const REJECT_HEADER = ["line", "column", "value", "reason"] as const;

const rejectCells = (reject: RejectLine): string[] => [
  String(reject.line),
  reject.column,
  reject.value,
  reject.reason,
];

/** Writes every reject, in the order given, and resolves when the file is on disk. */
export async function writeRejectFile(
  path: string,
  rejects: AsyncIterable<RejectLine>,
): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  try {
    await write(CSV_BOM + csvLines([[...REJECT_HEADER]]));
    for await (const reject of rejects) {
      await write(csvLines([rejectCells(reject)]));
      written++;
    }
  } finally {
    out.end();
    await once(out, "close");
  }
  return written;
}
