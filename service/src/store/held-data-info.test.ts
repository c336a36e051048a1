import { describe, expect, it } from "vitest";
import type { DataInfo } from "./data-info.ts";
import { heldDataInfo, noteDataWritten } from "./held-data-info.ts";

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
  it("reads again after a write through the same database, not another's", async () => {
    const database = {};
    const { reads, read } = counted();
    const dataInfo = heldDataInfo(database, read);
    await dataInfo();
    noteDataWritten({});
    await dataInfo();
    expect(reads.count).toBe(1);
    reads.since = "2026-11-02T00:00:00.000Z";
    noteDataWritten(database);
    expect((await dataInfo()).since).toBe("2026-11-02T00:00:00.000Z");
    expect(reads.count).toBe(2);
  });

  it("reads again when the engine's version moves", async () => {
    let version = 7;
    const { reads, read } = counted();
    const dataInfo = heldDataInfo({}, read, { version: () => version });
    await dataInfo();
    await dataInfo();
    version = 8;
    await dataInfo();
    expect(reads.count).toBe(2);
  });

  it("reads again once the held read is ttlMs old", async () => {
    let clock = 1000;
    const { reads, read } = counted();
    const dataInfo = heldDataInfo({}, read, { ttlMs: 50, now: () => clock });
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
    const dataInfo = heldDataInfo({}, read);
    reads.failing = true;
    await expect(dataInfo()).rejects.toThrow("database away");
    reads.failing = false;
    expect((await dataInfo()).since).toBe("2026-11-01T00:00:00.000Z");
    expect(reads.count).toBe(2);
  });
});
