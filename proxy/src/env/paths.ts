import { resolve } from "node:path";

/**
 * Relative paths in the environment (WEB_DIST, UPSTREAM_API_KEY_FILE, PROXY_DATABASE_PATH)
 * resolve against the repository root, whatever the working directory, as the service's
 * DATABASE_PATH does: so `npm run start -w @vics/proxy` (run in proxy/) and
 * `node proxy/src/index.ts` agree.
 */
export const REPO_ROOT = resolve(import.meta.dirname, "../../..");
export const fromRoot = (path: string) => resolve(REPO_ROOT, path);
