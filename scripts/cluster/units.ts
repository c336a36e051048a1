// What `npm run cluster` reads from a rendered systemd unit to start a replica the way systemd
// would: the command, its folder and its environment. Only the keys the deploy/ units use.
import { readFileSync } from "node:fs";

export interface UnitCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Restart=on-failure: the cluster starts a replica again when it dies, as systemd does. */
  restartOnFailure: boolean;
  restartSeconds: number;
}

/** KEY=value lines; `#` comments and blank lines skipped (systemd's EnvironmentFile). */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`line ${index + 1}: not KEY=value: ${line}`);
    env[match[1]!] = match[2]!;
  }
  return env;
}

/** The [Service] settings of a unit, for instance `%i`. */
export function readUnit(
  text: string,
  instance: string,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): UnitCommand {
  const settings: Array<[string, string]> = [];
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const equals = line.indexOf("=");
    if (section === "Service" && equals > 0)
      settings.push([
        line.slice(0, equals),
        line.slice(equals + 1).replaceAll("%i", instance),
      ]);
  }
  const one = (key: string) => settings.findLast(([name]) => name === key)?.[1];
  const execStart = one("ExecStart");
  const cwd = one("WorkingDirectory");
  if (!execStart || !cwd)
    throw new Error("The unit has no ExecStart or WorkingDirectory");
  // As systemd.exec(5) says: EnvironmentFile= settings override Environment= ones, and a
  // later file overrides an earlier one. (The deploy/ files never set one name in both.)
  const env: Record<string, string> = {};
  for (const [key, value] of settings) {
    if (key !== "Environment") continue;
    const [name, ...rest] = value.split("=");
    env[name!] = rest.join("=");
  }
  for (const [key, value] of settings) {
    if (key !== "EnvironmentFile") continue;
    // "-": the file may be missing (a replica's own settings), and is then skipped, as systemd
    // does; any other error is not.
    const optional = value.startsWith("-");
    let text: string;
    try {
      text = readFile(value.replace(/^-/, ""));
    } catch (error) {
      if (optional && (error as NodeJS.ErrnoException).code === "ENOENT")
        continue;
      throw error;
    }
    Object.assign(env, parseEnvironmentFile(text));
  }
  const [command, ...args] = execStart.split(/\s+/);
  return {
    command: command!,
    args,
    cwd,
    env,
    restartOnFailure: one("Restart") === "on-failure",
    restartSeconds: Number(one("RestartSec") ?? "0"),
  };
}
