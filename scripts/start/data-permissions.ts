// `npm start` keeps its data folder for the user who runs it (issue 33): the databases hold
// password hashes, webhook secrets, the unsubscribe key and the audit log, the key files the
// API keys. The folder and its logs folder are 0700, those files 0600; what an older start
// left readable by others is fixed at start, and named in one warn line. Only VICS's own
// files are touched: DATA_DIR may be a folder that holds other things too.
import { openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  describeFixes,
  keepOwnerOnly,
  ownerOnlyFolder,
} from "@vics/server-kit/owner-only";
import { shownPath } from "./summary.ts";

/** What `npm start` and its children write in the data folder; nothing else there is touched. */
const DATA_FILES = [
  "vics.sqlite",
  "proxy.sqlite",
  "proxy-api-key",
  "watch-api-key",
].flatMap((name) =>
  name.endsWith(".sqlite")
    ? [name, `${name}-wal`, `${name}-shm`, `${name}-journal`]
    : [name],
);

/**
 * Makes `dataDir` and its logs folder (created when missing), the databases, key files and
 * logs in them the user's alone; the warn line naming what others could read, or undefined
 * when nothing was.
 */
export function ownerOnlyData(
  root: string,
  dataDir: string,
): string | undefined {
  const logsDir = join(dataDir, "logs");
  const fixed = [...ownerOnlyFolder(dataDir), ...ownerOnlyFolder(logsDir)];
  const logs = readdirSync(logsDir).filter((name) => name.endsWith(".log"));
  fixed.push(
    ...keepOwnerOnly([
      ...DATA_FILES.map((name) => join(dataDir, name)),
      ...logs.map((name) => join(logsDir, name)),
    ]),
  );
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
