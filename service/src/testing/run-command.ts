// A command-line tool run as an operator runs it, for the CLI tests: its exit code and what
// it printed, whether it succeeded or not.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCommand(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(file, [...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CommandResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
