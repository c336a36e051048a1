import { describe, expect, it } from "vitest";
import type { DataInfo } from "./data-info.ts";
import { heldDataInfo } from "./held-data-info.ts";

/** A read whose first call waits for `first.resolve`; later calls answer at once. */
function heldOpen() {
  const first = Promise.withResolvers<DataInfo>();
  const reads = { count: 0 };
  const read = (): Promise<DataInfo> =>
    ++reads.count === 1 ? first.promise : Promise.resolve({ asOf: {} });
  return { first, reads, read };
}

/** A read that counts itself and answers `info` (or fails while `failing`). */
function counted() {
  const reads = { count: 0, failing: false, since: "2026-11-01T00:00:00.000Z" };
  const read = async (): Promise<DataInfo> => {
    reads.count++;
    if (reads.failing) throw new Error("database away");
    return { since: reads.since, asOf: {} };
  };
  return { reads, read };
}

describe("heldDataInfo", () => {
  it("reads again after its own invalidate, not another's", async () => {
    const { reads, read } = counted();
    const dataInfo = heldDataInfo(read);
    await dataInfo.read();
    heldDataInfo(read).invalidate();
    await dataInfo.read();
    expect(reads.count).toBe(1);
    reads.since = "2026-11-02T00:00:00.000Z";
    dataInfo.invalidate();
    expect((await dataInfo.read()).since).toBe("2026-11-02T00:00:00.000Z");
    expect(reads.count).toBe(2);
  });

  it("reads again when the engine's version moves", async () => {
    let version = 7;
    const { reads, read } = counted();
    const dataInfo = heldDataInfo(read, { version: () => version }).read;
    await dataInfo();
    await dataInfo();
    version = 8;
    await dataInfo();
    expect(reads.count).toBe(2);
  });

  it("reads again once the held read is ttlMs old", async () => {
    let clock = 1000;
    const { reads, read } = counted();
    const dataInfo = heldDataInfo(read, { ttlMs: 50, now: () => clock }).read;
    await dataInfo();
    clock += 49;
    await dataInfo();
    expect(reads.count).toBe(1);
    clock += 1;
    await dataInfo();
    expect(reads.count).toBe(2);
  });

  it("keeps no failed read: the next call asks again", async () => {
    const { reads, read } = counted();
    const dataInfo = heldDataInfo(read).read;
    reads.failing = true;
    await expect(dataInfo()).rejects.toThrow("database away");
    reads.failing = false;
    expect((await dataInfo()).since).toBe("2026-11-01T00:00:00.000Z");
    expect(reads.count).toBe(2);
  });

  // The write count and the version are taken before the read: a change while it is under
  // way may or may not be in what it reads, so the next call must read again.
  it("reads again after an invalidate made while its read was under way", async () => {
    const { first, reads, read } = heldOpen();
    const dataInfo = heldDataInfo(read);
    const reading = dataInfo.read();
    dataInfo.invalidate();
    first.resolve({ asOf: {} });
    await reading;
    await dataInfo.read();
    expect(reads.count).toBe(2);
  });

  it("reads again after the version moved while its read was under way", async () => {
    let version = 7;
    const { first, reads, read } = heldOpen();
    const dataInfo = heldDataInfo(read, { version: () => version });
    const reading = dataInfo.read();
    version = 8;
    first.resolve({ asOf: {} });
    await reading;
    await dataInfo.read();
    expect(reads.count).toBe(2);
  });
});
