// The proxy's API key for the vehicle service (UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE) and
// the watched fleets' own (WATCH_API_KEY or WATCH_API_KEY_FILE): checked as a header value of a
// VICS key's length, and never said in an error.
import { readSecretFile } from "@vics/server-kit/secret-file";
import { valueOrFile } from "@vics/server-kit/env-fields";
import { REPO_ROOT } from "./paths.ts";

const MIN_KEY_LENGTH = 20;

export type KeyResult = { key: string } | { error: string };

const KEY_MISSING =
  "UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE must be set to the proxy's API key for the vehicle service (create one with `scripts/keys create --plan internal --name proxy`)";

/**
 * The key in `file` (resolved from the repository root), checked as at start-up: at start, and
 * again on every SIGHUP. An error never holds the key.
 */
export function readApiKeyFile(
  keyFile: string,
  variable = "UPSTREAM_API_KEY_FILE",
): KeyResult {
  const read = readSecretFile(keyFile, variable, REPO_ROOT);
  return "error" in read ? read : checkedKey(read.value);
}

export function readApiKey(present: Record<string, string>): KeyResult {
  const read = valueOrFile(present, "UPSTREAM_API_KEY", REPO_ROOT);
  if (read && "error" in read) return read;
  const key = read?.value.trim();
  if (!key) return { error: KEY_MISSING };
  return checkedKey(key);
}

/** The re-checks' own key: optional; both variables, or an unreadable file, is an error. */
export function readWatchKey(
  present: Record<string, string>,
): KeyResult | undefined {
  const read = valueOrFile(present, "WATCH_API_KEY", REPO_ROOT);
  if (read === undefined || "error" in read) return read;
  const checked = checkedKey(read.value.trim());
  return "error" in checked && !read.fromFile
    ? { error: `WATCH_API_KEY: ${checked.error}` }
    : checked;
}

function checkedKey(key: string): KeyResult {
  // A header value cannot carry spaces or control characters; say so without echoing it.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    return {
      error:
        "the API key contains spaces or characters that cannot be sent in a header",
    };
  }
  // VICS keys are 48 characters. Something much shorter is a placeholder or a typo, and would
  // also make the log redaction of the key mangle ordinary words.
  if (key.length < MIN_KEY_LENGTH) {
    return {
      error: `the API key is too short to be a VICS API key (fewer than ${MIN_KEY_LENGTH} characters)`,
    };
  }
  return { key };
}
