// The names of the backups' folders: vics-backup-<UTC time>, then -<n> for a second backup in
// the same second, and .partial while it is made.
import { statSync } from "node:fs";
import { join } from "node:path";

const NAME = /^vics-backup-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)(?:-(\d+))?$/;

/** A finished backup's folder name as its time and its same-second number (0 for the first). */
export function parseBackupName(
  name: string,
): { time: string; n: number } | undefined {
  const match = NAME.exec(name);
  return match ? { time: match[1]!, n: Number(match[2] ?? 0) } : undefined;
}

/** Backups' folder names, oldest first: by time, then by number (-2 before -10). */
export function sortBackups(names: readonly string[]): string[] {
  const key = (name: string) => parseBackupName(name) ?? { time: name, n: 0 };
  return [...names].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x.time < y.time ? -1 : x.time > y.time ? 1 : x.n - y.n;
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether `name` in `parent` is the folder of a backup that never finished and has not changed
 * for a day (a backup under way writes into it).
 */
export const isStalePartial =
  (parent: string, now: number) =>
  (name: string): boolean => {
    if (!name.endsWith(".partial")) return false;
    if (!parseBackupName(name.slice(0, -".partial".length))) return false;
    try {
      return now - statSync(join(parent, name)).mtimeMs > DAY_MS;
    } catch {
      return false;
    }
  };
