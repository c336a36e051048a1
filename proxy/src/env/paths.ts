import { resolve } from "node:path";

/**
 * Relative paths in the environment (WEB_DIST, UPSTREAM_API_KEY_FILE, PROXY_DATABASE_PATH)
 * resolve against the repository root, whatever the working directory, as the service's
 * DATABASE_PATH does: so `npm run start -w @vics/proxy` (run in proxy/) and
 * `node proxy/src/index.ts` agree.
 */
export const REPO_ROOT = resolve(import.meta.dirname, "../../..");
export const fromRoot = (path: string) => resolve(REPO_ROOT, path);

/** Only what is set: an empty variable means "not set", as in most shells' `VAR= command`. */
export function presentOnly(
  source: Record<string, string | undefined>,
): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && value !== "") present[name] = value;
  }
  return present;
}

/** zod's issues as "NAME: problem" lines. */
export const issueLines = (
  issues: readonly { path: PropertyKey[]; message: string }[],
) => issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
