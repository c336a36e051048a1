// An XLSX is a zip. Before read-excel-file unpacks one, read its central directory (the list
// of entries at the end of the zip) and refuse it when the entries declare more than
// MAX_UNZIPPED_BYTES: a zip bomb declares gigabytes in a few kilobytes. The declared sizes
// are what counts, because read-excel-file's unzipper (fflate) allocates each entry's output
// at its declared size and never writes past it, so a lying entry cannot grow beyond it.
// The directory is read the way fflate reads it (entry count and offset from the end record,
// or from the zip64 record when there is one), so both see the same entries.
import type { ParseFailure } from "../fleet-types.ts";
import { MAX_UNZIPPED_BYTES, parseFailures } from "./parse-failures.ts";

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const UNKNOWN_32 = 0xffffffff;
/** The end record sits in the last 22 bytes plus a comment of up to 65,535. */
const MAX_END_SEARCH = 22 + 0xffff;
/** A workbook has a few dozen entries; thousands mean something else, or a trap. */
const MAX_ENTRIES = 10_000;

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** The uncompressed size the entry declares. */
  size: number;
  /** Where its local header starts. */
  localOffset: number;
}

export function inspectZip(bytes: Uint8Array): ZipEntry[] | ParseFailure {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fits = (offset: number, length: number) =>
    offset >= 0 && offset + length <= bytes.length;
  const u16 = (offset: number) => view.getUint16(offset, true);
  const u32 = (offset: number) => view.getUint32(offset, true);

  let end = -1;
  const lowest = Math.max(0, bytes.length - MAX_END_SEARCH);
  for (let offset = bytes.length - 22; offset >= lowest; offset--) {
    if (u32(offset) === END_OF_DIRECTORY) {
      end = offset;
      break;
    }
  }
  if (end < 0) return parseFailures.corruptWorkbook();
  // A zip split over several disks (never a workbook): the two counts differ.
  if (u16(end + 8) !== u16(end + 10)) return parseFailures.corruptWorkbook();
  let count = u16(end + 10);
  let offset = u32(end + 16);
  let zip64 = false;
  if (end >= 20 && u32(end - 20) === ZIP64_LOCATOR) {
    const record = u32(end - 12);
    if (fits(record, 56) && u32(record) === ZIP64_END_OF_DIRECTORY) {
      zip64 = true;
      count = u32(record + 32);
      offset = u32(record + 48);
    }
  }
  if (count > MAX_ENTRIES) return parseFailures.corruptWorkbook();

  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let total = 0;
  for (let index = 0; index < count; index++) {
    if (!fits(offset, 46) || u32(offset) !== DIRECTORY_ENTRY)
      return parseFailures.corruptWorkbook();
    const nameLength = u16(offset + 28);
    const extraLength = u16(offset + 30);
    const commentLength = u16(offset + 32);
    const nameStart = offset + 46;
    const extraStart = nameStart + nameLength;
    if (!fits(nameStart, nameLength + extraLength))
      return parseFailures.corruptWorkbook();
    // Without a zip64 record, fflate takes 0xFFFFFFFF (4 GB) at its word: so does this guard.
    const [size, compressedSize, localOffset] = zip64
      ? withZip64(view, extraStart, extraLength, [
          u32(offset + 24),
          u32(offset + 20),
          u32(offset + 42),
        ])
      : [u32(offset + 24), u32(offset + 20), u32(offset + 42)];
    total += size;
    if (total > MAX_UNZIPPED_BYTES) return parseFailures.unzipsTooLarge();
    entries.push({
      name: decoder.decode(bytes.subarray(nameStart, extraStart)),
      method: u16(offset + 10),
      compressedSize,
      size,
      localOffset,
    });
    offset = extraStart + extraLength + commentLength;
  }
  return entries;
}

/**
 * Size, compressed size and offset, each replaced by its 64-bit value from the zip64 extra
 * field (id 1) where the 32-bit one is 0xFFFFFFFF; the field lists only those, in that order.
 */
function withZip64(
  view: DataView,
  start: number,
  length: number,
  values: [number, number, number],
): [number, number, number] {
  if (!values.includes(UNKNOWN_32)) return values;
  const end = start + length;
  for (let field = start; field + 4 <= end;) {
    const id = view.getUint16(field, true);
    const fieldEnd = field + 4 + view.getUint16(field + 2, true);
    if (id === 1) {
      let at = field + 4;
      const read = (value: number) => {
        if (value !== UNKNOWN_32 || at + 8 > Math.min(fieldEnd, end))
          return value;
        const low = view.getUint32(at, true);
        const high = view.getUint32(at + 8 - 4, true);
        at += 8;
        return high * 2 ** 32 + low;
      };
      return [read(values[0]), read(values[1]), read(values[2])];
    }
    field = fieldEnd;
  }
  return values;
}
