// `scripts/users create | list | role | disable | enable | reset`: the team's accounts from a
// shell, on the proxy's store (DATABASE_URL, else PROXY_DATABASE_PATH). Each change is an audit
// event. Opening the store migrates it: with MIGRATION_DATABASE_URL, this is also how an owner
// sets up a PostgreSQL store for proxies that hold only their lesser role's URL.
import { userInfo } from "node:os";
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { loadStoreEnv } from "./env.ts";
import { openProxyStoreOrExit } from "./team/store/open-proxy-store.ts";
import { userCommand, UsageError, USAGE } from "./team/users/user-commands.ts";
import { UserAdminError } from "./team/users/user-admin.ts";

const args = readCliArgs(USAGE, {
  email: { type: "string" },
  name: { type: "string" },
  role: { type: "string" },
  admin: { type: "boolean" },
});

const env = loadStoreEnv();
const store = await openProxyStoreOrExit(
  env,
  "vics-users",
  "scripts/users cannot start",
);
try {
  await userCommand(
    {
      store,
      actor: {
        userId: null,
        email: `scripts/users (${userInfo().username})`,
        clientAddress: null,
        requestId: null,
      },
      origin: env.linkOrigin,
      now: Date.now,
    },
    args.positionals,
    args.values,
    (line) => console.log(line),
  );
} catch (error) {
  await store.close();
  if (error instanceof UserAdminError) fail(error.message, 1);
  if (error instanceof UsageError) fail(`${error.message}\n${USAGE}`, 2);
  throw error;
}
await store.close();
