/**
 * `@vics/server-kit/owner-only`: the data files and folders of VICS (its databases with
 * their -wal and -shm, logs, key files) hold password hashes, webhook secrets, the unsubscribe
 * key and the audit log, so no other user of the machine may read them: files 0600, folders
 * 0700. New ones are made so; an older one readable by others loses its group and other
 * access (the owner's own bits stay as they were), and is named, so a caller can say once
 * what it changed.
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";

/** A path whose group and other access were taken off, with the mode it had. */
export interface OwnerOnlyFix {
  path: string;
  was: number;
}

const GROUP_AND_OTHER = 0o077;
/** A folder shared by everyone, such as /tmp: never ours to close. */
const STICKY = 0o1000;

/** Takes group and other access off each path that exists (a missing one is skipped). */
export function keepOwnerOnly(paths: readonly string[]): OwnerOnlyFix[] {
  const fixed: OwnerOnlyFix[] = [];
  for (const path of paths) {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      continue;
    }
    const was = stats.mode & 0o777;
    if ((was & GROUP_AND_OTHER) === 0 || stats.mode & STICKY) continue;
    try {
      chmodSync(path, was & 0o700);
    } catch {
      // Another user's file: not ours to change, and not a reason to stop.
      continue;
    }
    fixed.push({ path, was });
  }
  return fixed;
}

/** A SQLite database's files: the database, its -wal and -shm, and a rollback journal. */
export const sqliteFiles = (path: string): string[] => [
  path,
  `${path}-wal`,
  `${path}-shm`,
  `${path}-journal`,
];

/**
 * Makes an existing SQLite database's files owner-only before its server opens it; the warn
 * to log when one was readable by others (undefined when none was).
 */
export function ownerOnlySqlite(
  path: string,
): { message: string; files: string } | undefined {
  const fixed = keepOwnerOnly(sqliteFiles(path));
  return fixed.length === 0
    ? undefined
    : {
        message:
          "the database was readable by other users of this machine; it is now this user's alone",
        files: describeFixes(fixed),
      };
}

/** Makes `folder` and any parent it creates 0700; an existing one is made owner-only. */
export function ownerOnlyFolder(folder: string): OwnerOnlyFix[] {
  const existed = exists(folder);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return existed ? keepOwnerOnly([folder]) : [];
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** "data/proxy.sqlite (was 644)", for a warn line. */
export const describeFixes = (fixes: readonly OwnerOnlyFix[]): string =>
  fixes
    .map((fix) => `${fix.path} (was ${fix.was.toString(8).padStart(3, "0")})`)
    .join(", ");
