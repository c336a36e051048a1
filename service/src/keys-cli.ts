// `scripts/keys create --plan <plan> --name <text> | list | revoke <name>` (README's command)
import { existsSync } from "node:fs";
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { loadEnv } from "./env.ts";
import {
  createKeyCommand,
  KeyCommandError,
  listKeysCommand,
  revokeKeyCommand,
} from "./keys/key-commands.ts";
import { databaseSettings, openStoreOrExit } from "./store/open-store.ts";

const USAGE = `Usage:
  scripts/keys create --plan <trial|standard|fleet|internal> --name <text>
  scripts/keys list
  scripts/keys revoke <name>`;

const { values, positionals } = readCliArgs(USAGE, {
  plan: { type: "string" },
  name: { type: "string" },
});
const [command, ...rest] = positionals;
if (command !== "create" && command !== "list" && command !== "revoke")
  fail(
    `${command ? `Unknown command "${command}".` : "Missing command."}\n${USAGE}`,
    2,
  );

const env = loadEnv();
// A mistyped DATABASE_PATH must not quietly create a new database: a key made there would
// work nowhere. The service creates the database on its first start. (A PostgreSQL database
// is the operator's to create; a wrong DATABASE_URL fails to connect.)
if (env.DATABASE_URL === undefined && !existsSync(env.DATABASE_PATH))
  fail(
    `No database at ${env.DATABASE_PATH}. Check DATABASE_PATH, or start the service once ` +
      "(npm start, or npm run start -w @vics/service) to create and seed it.",
    1,
  );
// Notices go to stderr: stdout's last line is the new key, for scripts.
const store = await openStoreOrExit(
  databaseSettings(env, "vics-keys-cli"),
  new Date(),
  (message) => console.error(message),
);
const print = (line: string) => console.log(line);
try {
  if (command === "create")
    await createKeyCommand(store, print, values, new Date());
  if (command === "list") await listKeysCommand(store, print);
  if (command === "revoke")
    await revokeKeyCommand(
      store,
      print,
      rest.join(" ") || undefined,
      new Date(),
    );
} catch (error) {
  if (!(error instanceof KeyCommandError)) throw error;
  await store.close();
  fail(error.message, 1);
}
await store.close();
