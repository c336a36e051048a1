// An import's tax and MOT rows against a live register's facts, on PostgreSQL (RegisterFact in
// ../import-store.ts): after the plan, the rows and removals that would overrule a fact the
// register gave after the file's --as-of are kept out (counted unchanged, named in
// pg_temp.kept); after the write, the vehicles the file did change no longer name the register.
import type { PgClient } from "@vics/server-kit/postgres";
import type { RegisterFact } from "../import-store.ts";

/** The register fetched `registration`'s fact after the file's data was current ($1). */
const newer = (register: RegisterFact, registration: string) =>
  `EXISTS (SELECT 1 FROM fetched_facts f WHERE f.registration = ${registration}
    AND f.kind = '${register.kind}' AND f.fetched_at > $1::timestamptz)`;

export async function keepRegisterNewer(
  client: PgClient,
  register: RegisterFact,
  label: string,
  dataAsOf: string,
): Promise<void> {
  // Without a register on (the usual case) no fact is newer, and the rows are not read again.
  const { rowCount } = await client.query(
    "SELECT 1 FROM fetched_facts WHERE kind = $1 AND fetched_at > $2::timestamptz LIMIT 1",
    [register.kind, dataAsOf],
  );
  if (!rowCount) return;
  // CASE: the row's disagreement is worked out only for a vehicle the register has newer.
  await client.query(
    `UPDATE pg_temp.plan s SET change = 'kept' WHERE change <> 'unchanged'
       AND CASE WHEN ${newer(register, "s.registration")}
         THEN (${register.disagrees}) ELSE false END`,
    [dataAsOf],
  );
  await client.query(`INSERT INTO pg_temp.kept (label)
    SELECT ${label} FROM pg_temp.plan s WHERE change = 'kept' ORDER BY line`);
  await client.query(
    "UPDATE pg_temp.plan SET change = 'unchanged' WHERE change = 'kept'",
  );
  await client.query(
    `WITH kept_out AS (
       DELETE FROM pg_temp.removed r USING vehicles v
       WHERE v.id = r.vehicle_id AND ${newer(register, "v.registration")}
       RETURNING r.label)
     INSERT INTO pg_temp.kept (label) SELECT label FROM kept_out ORDER BY label COLLATE "C"`,
    [dataAsOf],
  );
}

/** After the write: the touched vehicles' facts of the kind are the file's, as of dataAsOf. */
export async function clearRegisterMarks(
  client: PgClient,
  register: RegisterFact,
  dataAsOf: string,
): Promise<void> {
  await client.query(
    `DELETE FROM fetched_facts f USING vehicles v, pg_temp.touched t
     WHERE t.vehicle_id = v.id AND f.registration = v.registration
       AND f.kind = $1 AND f.fetched_at <= $2::timestamptz`,
    [register.kind, dataAsOf],
  );
}
