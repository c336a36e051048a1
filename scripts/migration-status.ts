/**
 * What `scripts/db status` prints for one database: which of this release's schema steps it
 * has run and which are pending, the same words for SQLite (migrateSqliteSteps) and
 * PostgreSQL (migratePg), which both count steps from 1 in order.
 */
export interface MigrationStatus {
  /** Whose database, as a sentence begins: "The service's database". */
  whose: string;
  /** Which server's settings name it: "the service". */
  server: string;
  engine: "SQLite" | "PostgreSQL";
  /** The file, or the URL without its password. */
  place: string;
  /** Steps the database has run; undefined when it was never migrated (not made yet). */
  ran: number | undefined;
  /** Steps this release knows. */
  steps: number;
  /** What runs the pending steps: "`scripts/db migrate` or the service's next start". */
  runBy: string;
}

const span = (from: number, to: number) =>
  from === to ? `step ${from}` : `steps ${from}-${to}`;

export function describeMigrations(status: MigrationStatus): string {
  const { whose, server, engine, place, ran, steps, runBy } = status;
  const where = `${whose} at ${place} (${engine})`;
  // One DATABASE_URL is read for both servers, and each may have a database of its own.
  if (ran === undefined && engine === "PostgreSQL")
    return `${where} has no record of its steps there: it is not made yet, or ${server}'s own DATABASE_URL names another database. If it is this one, ${span(1, steps)} ${steps === 1 ? "is" : "are"} pending, run by ${runBy}.`;
  if (ran === undefined)
    return `${where} is not made yet: ${span(1, steps)} pending, run by ${runBy}.`;
  if (ran > steps)
    return `${where} has run ${span(1, ran)}, ${ran - steps} more than this release knows (${steps}): a newer release migrated it.`;
  const done = ran === 0 ? "no steps run" : `ran ${span(1, ran)}`;
  return ran === steps
    ? `${where}: ${done} of ${steps}, none pending.`
    : `${where}: ${done} of ${steps}; ${span(ran + 1, steps)} pending, run by ${runBy}.`;
}
