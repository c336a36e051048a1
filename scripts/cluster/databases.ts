// The cluster's PostgreSQL roles and databases, made once, as an operator would with psql
// (docs/deployment.md, "PostgreSQL"): each app its own login role and its own database.
import pg from "pg";

const literal = (value: string) => pg.escapeLiteral(value);
const name = (value: string) => pg.escapeIdentifier(value);

export interface RoleSpec {
  role: string;
  password: string;
}

/** Creates the role when it is missing, and sets its password either way. */
export async function ensureRole(
  superuserUrl: string,
  spec: RoleSpec,
): Promise<void> {
  await withClient(superuserUrl, async (client) => {
    const { rowCount } = await client.query(
      "SELECT 1 FROM pg_roles WHERE rolname = $1",
      [spec.role],
    );
    const verb = rowCount === 0 ? "CREATE" : "ALTER";
    await client.query(
      `${verb} ROLE ${name(spec.role)} LOGIN PASSWORD ${literal(spec.password)}`,
    );
  });
}

/** Creates the database, owned by `owner`, when it is missing; only `users` may connect. */
export async function ensureDatabase(
  superuserUrl: string,
  database: string,
  owner: string,
  users: readonly string[] = [],
): Promise<void> {
  await withClient(superuserUrl, async (client) => {
    const { rowCount } = await client.query(
      "SELECT 1 FROM pg_database WHERE datname = $1",
      [database],
    );
    if (rowCount === 0)
      await client.query(
        `CREATE DATABASE ${name(database)} OWNER ${name(owner)}`,
      );
    // Nobody else may connect: the default lets every role in.
    await client.query(`REVOKE ALL ON DATABASE ${name(database)} FROM PUBLIC`);
    for (const user of users)
      await client.query(
        `GRANT CONNECT ON DATABASE ${name(database)} TO ${name(user)}`,
      );
  });
}

/** postgres://role:password@127.0.0.1:port/database */
export function databaseUrl(
  port: number,
  spec: RoleSpec,
  database: string,
): string {
  return `postgres://${encodeURIComponent(spec.role)}:${encodeURIComponent(spec.password)}@127.0.0.1:${port}/${database}`;
}

async function withClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
