// Test support for the backup tests (scripts/backup-drill.test.ts, scripts/restore.test.ts).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const ROOT = join(import.meta.dirname, "../../..");

/**
 * A CLI of a workspace (`entry` from the repository's root), run directly as an operator makes
 * the stores with it; its stdout, or a failure with its stderr.
 */
export async function cli(
  entry: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, entry), ...args],
    { env: { PATH: process.env.PATH ?? "", ...env } },
  );
  return stdout;
}
