// The other half of the zip bomb guard. An entry may declare a small size and hold far more:
// fflate then writes no more than the declared size, but still decodes every byte of the
// stream, and 10 MB of deflated zeros is 10 GB of decoding: minutes of a busy worker. So each
// deflated entry is inflated here first with the platform's DecompressionStream, counting, and
// stopped as soon as it passes its declared size. The work is bounded by the declared total
// (MAX_UNZIPPED_BYTES), and native inflating is fast next to parsing the XML after it.
import type { ParseFailure } from "../fleet-types.ts";
import { parseFailures } from "./parse-failures.ts";
import type { ZipEntry } from "./zip-guard.ts";

const DEFLATED = 8;
/** Small input steps, so one step can only inflate to a few MB before the count is looked at. */
const STEP_BYTES = 16 * 1024;

function chunked(data: Uint8Array): ReadableStream<Uint8Array<ArrayBuffer>> {
  let at = 0;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (at >= data.length) {
        controller.close();
        return;
      }
      controller.enqueue(data.slice(at, at + STEP_BYTES));
      at += STEP_BYTES;
    },
  });
}

/** False when `data` inflates to more than `limit` bytes. A broken stream is the reader's to report. */
async function inflatesWithin(
  data: Uint8Array,
  limit: number,
  inflater: DecompressionStream,
): Promise<boolean> {
  const reader = chunked(data).pipeThrough(inflater).getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return false;
      }
    }
  } catch {
    return true;
  }
}

/** Null in browsers without "deflate-raw" (before 2023): the declared sizes are still checked. */
function newInflater(): DecompressionStream | null {
  try {
    return new DecompressionStream("deflate-raw");
  } catch {
    return null;
  }
}

/** Where an entry's data starts: after its local header, as fflate reads it. */
function dataStart(view: DataView, entry: ZipEntry): number | null {
  const header = entry.localOffset;
  if (header < 0 || header + 30 > view.byteLength) return null;
  const start =
    header +
    30 +
    view.getUint16(header + 26, true) +
    view.getUint16(header + 28, true);
  return start + entry.compressedSize <= view.byteLength ? start : null;
}

export async function inflatedSizeFailure(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
): Promise<ParseFailure | null> {
  if (!newInflater()) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const entry of entries) {
    if (entry.method !== DEFLATED) continue;
    const start = dataStart(view, entry);
    if (start === null) return parseFailures.corruptWorkbook();
    const data = bytes.subarray(start, start + entry.compressedSize);
    const inflater = newInflater();
    if (inflater && !(await inflatesWithin(data, entry.size, inflater)))
      return parseFailures.corruptWorkbook();
  }
  return null;
}
