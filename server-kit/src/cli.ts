/**
 * `@vics/server-kit/cli`: what the project's command-line tools (`scripts/keys`, `scripts/db`,
 * `scripts/users`) share: their arguments read with node:util's parseArgs, --help, and a
 * refusal in one message with the exit code (2 for usage, 1 for a refusal).
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

/** Prints `message` on stderr and exits with `code`. */
export function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

/**
 * The command line's positionals and options; a malformed one exits 2 with `usage`, and
 * --help (or -h) prints `usage` and exits 0.
 */
export function readCliArgs<const T extends ParseArgsOptionsConfig>(
  usage: string,
  options: T,
) {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { ...options, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    return fail(
      `${error instanceof Error ? error.message : String(error)}\n${usage}`,
      2,
    );
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}
