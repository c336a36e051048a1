// A child process for the crash tests: creates keys through the store, one committed INSERT
// after another, as fast as it can, and prints each key's name once its write has returned.
// It never stops by itself: the test kills it with SIGKILL in the middle of its writes.
// Usage: node key-writer.ts <database path> <name prefix>
import { issueApiKey } from "../keys/api-key.ts";
import { openStore } from "../store/open-store.ts";

const [databasePath = "", prefix = "writer"] = process.argv.slice(2);
const store = await openStore({ path: databasePath }, new Date());
for (let index = 1; ; index++) {
  const name = `${prefix}-${index}`;
  await issueApiKey(store, "trial", name, new Date());
  // Pipes are synchronous on Linux: the line is out before the next write starts.
  process.stdout.write(`${name}\n`);
}
