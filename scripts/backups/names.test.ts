// The backups' folder names as --keep orders them.
import { describe, expect, it } from "vitest";
import { parseBackupName, sortBackups } from "./names.ts";

describe("the backups' names", () => {
  it("are ordered by time, then by their same-second number as a number", () => {
    const names = [
      "vics-backup-2026-11-29T02-30-00Z-10",
      "vics-backup-2026-11-29T02-30-01Z",
      "vics-backup-2026-11-29T02-30-00Z-2",
      "vics-backup-2026-11-28T23-59-59Z-11",
      "vics-backup-2026-11-29T02-30-00Z",
    ];
    expect(sortBackups(names)).toEqual([
      "vics-backup-2026-11-28T23-59-59Z-11",
      "vics-backup-2026-11-29T02-30-00Z",
      "vics-backup-2026-11-29T02-30-00Z-2",
      "vics-backup-2026-11-29T02-30-00Z-10",
      "vics-backup-2026-11-29T02-30-01Z",
    ]);
  });

  it("are a finished backup's only: not a .partial folder, nor another name", () => {
    expect(parseBackupName("vics-backup-2026-11-29T02-30-00Z-3")).toEqual({
      time: "2026-11-29T02-30-00Z",
      n: 3,
    });
    expect(
      parseBackupName("vics-backup-2026-11-29T02-30-00Z.partial"),
    ).toBeUndefined();
    expect(parseBackupName("vics-backup-notes")).toBeUndefined();
  });
});
