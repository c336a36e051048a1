// `npm start` keeps its data folder for the user who runs it (issue 33): the databases hold
// password hashes, webhook secrets, the unsubscribe key and the audit log, the key files the
// API keys. The folder and its folders are 0700, every file 0600; what an older start left
// readable by others is fixed at start, and named in one warn line.
import { openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  describeFixes,
  keepOwnerOnly,
  ownerOnlyFolder,
} from "@vics/shared/server/owner-only";
import { shownPath } from "./summary.ts";

/** Everything under `folder`, folders before what they hold. */
function everythingUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).map(
    (entry) => join(folder, entry),
  );
}

/**
 * Makes `dataDir` and its logs folder (created when missing) and everything in them the
 * user's alone; the warn line naming what others could read, or undefined when nothing was.
 */
export function ownerOnlyData(
  root: string,
  dataDir: string,
): string | undefined {
  const fixed = [
    ...ownerOnlyFolder(dataDir),
    ...ownerOnlyFolder(join(dataDir, "logs")),
  ];
  fixed.push(...keepOwnerOnly(everythingUnder(dataDir)));
  if (fixed.length === 0) return undefined;
  const shown = fixed.map((fix) => ({
    ...fix,
    path: shownPath(root, fix.path),
  }));
  return `npm start: other users of this machine could read ${describeFixes(shown)}; they are now for you alone (files 0600, folders 0700).`;
}

/** A log file opened for appending, made 0600 when it is new. */
export function appendOnlyLog(path: string): number {
  return openSync(path, "a", 0o600);
}
