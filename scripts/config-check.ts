// `scripts/config check <service|proxy> [--file <file>]`: reads a server's environment as
// the server would at start (every variable checked, key files read), and prints its effective
// settings with every secret hidden, or every problem. Run before a restart, an upgrade's new
// release against the running one's settings, so a bad value is found before it stops a replica.
// With --file, the file's variables (systemd's EnvironmentFile form) are read over the
// current environment's (not --env-file: Node takes that one for itself, wherever it stands on
// the command line). Exit 0 when the settings are valid, 1 when not, 2 for a usage error.
import { readEnvFile } from "./env-file.ts";
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { parseEnv as parseProxyEnv } from "../proxy/src/env.ts";
import { parseEnv as parseServiceEnv } from "../service/src/env.ts";
import { exporterLines, formatSettings } from "./settings-view.ts";

const USAGE = `Usage: scripts/config check <service|proxy> [--file <file>]
Checks a server's settings as it would read them at start, and prints the effective settings
with every secret hidden. --file reads the variables of a file in systemd's EnvironmentFile
form (KEY=value a line, e.g. /etc/vics/proxy.env) over the current environment's.
Exit 0 when the settings are valid, 1 when they are not, 2 for a usage error.`;

const { positionals, values } = readCliArgs(USAGE, {
  file: { type: "string", short: "f" },
});
const [command, server, ...rest] = positionals;
if (command !== "check" || rest.length > 0)
  fail(
    command === undefined
      ? USAGE
      : `Unknown command "${positionals.join(" ")}".\n${USAGE}`,
    2,
  );
if (server !== "service" && server !== "proxy")
  fail(`Say which server's settings to check: service or proxy.\n${USAGE}`, 2);

function envFile(path: string): NodeJS.ProcessEnv {
  try {
    return readEnvFile(path);
  } catch (error) {
    return fail((error as Error).message, 1);
  }
}

const file = values.file;
const source = {
  ...process.env,
  ...(file === undefined ? {} : envFile(file)),
};
const from = file === undefined ? "the environment" : file;

/** The server's settings as it would read them, or every problem. */
function check(): { settings: object } | { problems: string[] } {
  if (server === "service") {
    const result = parseServiceEnv(source);
    return result.ok
      ? { settings: result.variables }
      : { problems: result.problems };
  }
  const result = parseProxyEnv(source);
  return result.ok
    ? { settings: result.variables }
    : { problems: result.errors };
}

const checked = check();
if ("problems" in checked)
  fail(
    `The ${server}'s settings in ${from} are not valid; it would not start:\n${checked.problems
      .map((problem) => `  - ${problem}`)
      .join("\n")}`,
    1,
  );
const exporter = exporterLines(source);
console.log(
  `The ${server}'s settings in ${from} are valid. In effect (secrets hidden):\n${formatSettings(checked.settings)}`,
);
if (exporter.length > 0)
  console.log(
    `Read by OpenTelemetry's exporter itself, not checked here:\n${exporter
      .map(([name, value]) => `  ${name}  ${value}`)
      .join("\n")}`,
  );
