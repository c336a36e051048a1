import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The trimmed text of the file a `*_FILE` variable names (a relative path resolved against
 * `root`, the repository's), or why not, said as of `variable`. An error never holds the text:
 * the file holds a secret.
 */
export function readSecretFile(
  file: string,
  variable: string,
  root: string,
): { value: string } | { error: string } {
  const path = resolve(root, file);
  let value: string;
  try {
    value = readFileSync(path, "utf8").trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return { error: `${variable}: cannot read ${path} (${reason})` };
  }
  if (!value) return { error: `${variable}: ${path} is empty` };
  return { value };
}
