import type { PostgresServer } from "@vics/server-kit/testing/postgres-server";

/** The owner of the proxy's tables in the PostgreSQL tests, and the lesser role it grants to. */
const ROLES = { owner: "vics_owner", app: "vics_app" } as const;

/**
 * New empty databases on a test's PostgreSQL, each owned by vics_owner, with the URLs to reach
 * it as the owner and as vics_app: `fresh()` makes the next one. The roles are made once.
 */
export function ownedDatabases(server: () => PostgresServer, prefix: string) {
  let made = 0;
  return async function fresh() {
    if (made === 0)
      await server().query(`DO $$ BEGIN
        CREATE ROLE ${ROLES.owner} LOGIN; CREATE ROLE ${ROLES.app} LOGIN;
      EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    const name = `${prefix}_${++made}`;
    await server().createDatabase(name);
    await server().query(`ALTER DATABASE ${name} OWNER TO ${ROLES.owner}`);
    const as = (role: string) =>
      server().url(name).replace("postgres@", `${role}@`);
    return { owner: as(ROLES.owner), app: as(ROLES.app) };
  };
}
