import { readApiKeyFile } from "../../env/upstream-key.ts";
import type { Logger } from "@vics/server-kit/logger";

/**
 * The proxy's current API key, and its reload from UPSTREAM_API_KEY_FILE (on SIGHUP): checked
 * as at start-up; a file that cannot be used leaves the key as it was. Every key this process
 * has held is added to `secrets`, which the logger masks.
 */
export function apiKeyHolder(options: {
  key: string;
  keyFile?: string;
  logger: Logger;
  secrets: string[];
}) {
  let key = options.key;
  const { keyFile, logger, secrets } = options;
  return {
    current: () => key,
    reload(): void {
      if (keyFile === undefined) {
        logger.warn(
          "api key not reloaded: it was given in UPSTREAM_API_KEY; give it in UPSTREAM_API_KEY_FILE to rotate it without a restart",
        );
        return;
      }
      const read = readApiKeyFile(keyFile);
      if ("error" in read) {
        logger.error("api key not reloaded; the proxy keeps its key", {
          reason: read.error,
        });
        return;
      }
      if (!secrets.includes(read.key)) secrets.push(read.key);
      const changed = read.key !== key;
      key = read.key;
      logger.info("api key reloaded", { changed });
    },
  };
}
