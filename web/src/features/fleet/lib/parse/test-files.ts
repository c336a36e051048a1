// Real files for the parser's tests, built in the test rather than committed: XLSX written by
// write-excel-file's Node build, zips and compound files laid out byte by byte, random bytes
// from a seeded generator (the same every run).
import { deflateRawSync } from "node:zlib";
import writeXlsxFile, { type SheetData } from "write-excel-file/node";

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

export function textFile(text: string): ArrayBuffer {
  return utf8(text).buffer;
}

function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(
    bytes.byteOffset,
    bytes.byteOffset + bytes.byteLength,
  ) as ArrayBuffer;
}

/** A workbook of several sheets, in order: `[name, rows]` each. */
export async function workbookFile(
  sheets: Array<[string, SheetData]>,
): Promise<ArrayBuffer> {
  const written = writeXlsxFile(
    sheets.map(([sheet, data]) => ({ sheet, data })),
  );
  return arrayBufferOf(await written.toBuffer());
}

export async function xlsxFile(
  rows: SheetData,
  sheet = "Fleet",
): Promise<ArrayBuffer> {
  return arrayBufferOf(await writeXlsxFile(rows, { sheet }).toBuffer());
}

/** Deterministic bytes (mulberry32): a fuzzer's input that a failing test can replay. */
export function randomBytes(
  length: number,
  seed: number,
): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    bytes[index] = ((mixed ^ (mixed >>> 14)) >>> 0) & 0xff;
  }
  return bytes;
}

export function concat(...parts: Uint8Array[]): ArrayBuffer {
  const bytes = new Uint8Array(
    parts.reduce((sum, part) => sum + part.length, 0),
  );
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes.buffer;
}

interface ZipEntrySpec {
  name: string;
  /** What is stored, already compressed when `deflated`. */
  data: Uint8Array;
  deflated: boolean;
  /** What the central directory says it unpacks to. */
  declaredSize: number;
  /** Write the sizes as zip64 (0xFFFFFFFF plus the 64-bit values in an extra field). */
  zip64?: boolean;
}

/** A zip laid out by hand, so its directory can say what a writer never would. */
export function zipFile(entries: ZipEntrySpec[]): ArrayBuffer {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  const zip64 = entries.some((entry) => entry.zip64);
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const method = entry.deflated ? 8 : 0;
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, method, true);
    lv.setUint32(18, entry.data.length, true);
    lv.setUint32(22, Math.min(entry.declaredSize, 0xffffffff), true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);

    const extra = entry.zip64 ? 20 : 0;
    const central = new Uint8Array(46 + name.length + extra);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 45, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, method, true);
    cv.setUint32(20, entry.zip64 ? 0xffffffff : entry.data.length, true);
    cv.setUint32(24, entry.zip64 ? 0xffffffff : entry.declaredSize, true);
    cv.setUint16(28, name.length, true);
    cv.setUint16(30, extra, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    if (entry.zip64) {
      const at = 46 + name.length;
      cv.setUint16(at, 1, true);
      cv.setUint16(at + 2, 16, true);
      cv.setBigUint64(at + 4, BigInt(entry.declaredSize), true);
      cv.setBigUint64(at + 12, BigInt(entry.data.length), true);
    }
    locals.push(local, entry.data);
    centrals.push(central);
    offset += local.length + entry.data.length;
  }
  const directorySize = centrals.reduce((sum, part) => sum + part.length, 0);
  const tail: Uint8Array[] = [];
  if (zip64) {
    const record = new Uint8Array(56);
    const rv = new DataView(record.buffer);
    rv.setUint32(0, 0x06064b50, true);
    rv.setBigUint64(4, 44n, true);
    rv.setBigUint64(24, BigInt(entries.length), true);
    rv.setBigUint64(32, BigInt(entries.length), true);
    rv.setBigUint64(40, BigInt(directorySize), true);
    rv.setBigUint64(48, BigInt(offset), true);
    const locator = new Uint8Array(20);
    const xv = new DataView(locator.buffer);
    xv.setUint32(0, 0x07064b50, true);
    xv.setBigUint64(8, BigInt(offset + directorySize), true);
    xv.setUint32(16, 1, true);
    tail.push(record, locator);
  }
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, directorySize, true);
  ev.setUint32(16, offset, true);
  return concat(...locals, ...centrals, ...tail, end);
}

/** `size` zero bytes, deflated: a few kilobytes per 10 MB. */
export function deflatedZeros(size: number): Uint8Array {
  return new Uint8Array(deflateRawSync(new Uint8Array(size), { level: 9 }));
}

/**
 * The start of an OLE compound file: its 512-byte header, then a directory sector holding the
 * named streams. Enough for detection, which reads the signature and the stream names; a real
 * encrypted workbook needs Excel (or a crypto library we do not have) to make.
 */
export function compoundFile(streamNames: string[]): ArrayBuffer {
  const header = new Uint8Array(512);
  header.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  const directory = new Uint8Array(128 * Math.max(1, streamNames.length));
  streamNames.forEach((name, index) => {
    const view = new DataView(directory.buffer, index * 128, 128);
    [...name].forEach((char, at) =>
      view.setUint16(at * 2, char.charCodeAt(0), true),
    );
    view.setUint16(64, (name.length + 1) * 2, true);
    view.setUint8(66, 2);
  });
  return concat(header, directory);
}
