// A systemd EnvironmentFile's variables, as the servers' units give them: what
// `scripts/config check --file` and `scripts/backup --service-env` read. Throws naming the
// file and why when it cannot be read.
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";

export function readEnvFile(path: string): NodeJS.ProcessEnv {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { cause: error },
    );
  }
  return parseEnv(text);
}
