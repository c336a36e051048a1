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
    return fail(`${argumentProblem(error)}\n${usage}`, 2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/**
 * parseArgs's refusal in a line: an unknown option by its name alone (Node's own words go on
 * about positionals, with a quote left open), any other as Node says it.
 */
function argumentProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown =
    (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
      ? /^Unknown option '(.+?)'\. /.exec(message)
      : null;
  return unknown ? `Unknown option ${unknown[1]}.` : message;
}
