// The audit search on PostgreSQL for `npm run bench` (issue 37, point 5): the same 10,000,000
// events as the SQLite figure (one registration each, from 1,000,000 plates, about ten events a
// plate), dated over ten years with ten years' retention, so the log is about eleven yearly
// partitions (postgres/audit-partitions.ts), and a plate's events lie in most of them: the
// search for a first page of 50 reads every partition. Beside it, in the same run, the same
// events dated within one month: one partition, the table as it was before partitions. The
// figures are each database's median round's p50 (three rounds of 200 searches through the
// store, as the proxy calls it), and their ratio.
import { startPostgres } from "@vics/server-kit/testing/postgres-server";
import { openPostgresProxyStore } from "../proxy/src/team/store/postgres/postgres-proxy-store.ts";
import { AUDIT_EVENTS, SEARCHES, searchRounds } from "./audit-search.ts";
import { postgresMissing } from "./engines.ts";
import type { Recorder } from "./recorder.ts";

const PLATES = 1_000_000;
const STRIDE = 7919;
const DAY_MS = 86_400_000;
const TEN_YEARS_DAYS = 3650;

/** Plate n: the SQLite figure's plates (audit-search.ts), in PostgreSQL's words. */
const plateSql = (n: string) =>
  `chr(65 + (${n} / 676000) % 26) || chr(65 + (${n} / 26000) % 26) || lpad(((${n} / 260) % 100)::text, 2, '0') || chr(65 + (${n} / 10) % 26) || chr(65 + ${n} % 10) || chr(65 + (${n} / 100) % 26)`;

/** Fills the store's partitions straight in SQL, `spanDays` of events up to now. */
const seedSql = (events: number, spanDays: number) => {
  const end = Date.now() - DAY_MS;
  const start = end - spanDays * DAY_MS;
  return `
    SELECT audit_add_partitions(${start}, ${end});
    INSERT INTO audit_events (id, month, at, user_id, user_email, action, registrations, outcome,
      request_id, client_address)
    SELECT (audit_month(t.at)::bigint << 40) | g, audit_month(t.at), t.at, 'u' || (g % 200),
      'user' || (g % 200) || '@example.org', 'check.insurance',
      ARRAY[${plateSql(`((g * ${STRIDE}) % ${PLATES})::int`)}], '200', 'r' || g, '10.0.0.1'
    FROM generate_series(1::bigint, ${events}) AS g,
      LATERAL (SELECT ${start} + g * ${Math.floor((end - start) / events)}::bigint AS at) AS t;
    INSERT INTO audit_registrations (registration, month, event_id, at)
    SELECT registrations[1], month, id, at FROM audit_events;
    SELECT setval('audit_event_seq', ${events});`;
};

interface SearchFigures {
  p50Ms: number;
  spreadMs: [number, number];
  partitions: number;
  seedS: number;
}

async function searchOver(
  server: Awaited<ReturnType<typeof startPostgres>>,
  name: string,
  events: number,
  spanDays: number,
): Promise<SearchFigures> {
  const url = await server.createDatabase(name);
  const store = await openPostgresProxyStore({
    url,
    auditRetentionDays: TEN_YEARS_DAYS,
    applicationName: "audit-search-bench",
  });
  try {
    const seeded = performance.now();
    await server.query(seedSql(events, spanDays), name);
    // Each partition's visibility map and statistics, as autovacuum would have left them.
    await server.query(
      "VACUUM ANALYZE audit_events, audit_registrations",
      name,
    );
    const seedS = (performance.now() - seeded) / 1000;
    const { rows } = await server.query(
      `SELECT (SELECT count(*) FROM audit_partitions)::int AS partitions,
         ARRAY(SELECT registration FROM audit_registrations
          WHERE (event_id & ((1::bigint << 40) - 1)) % $1 = 0 LIMIT $2) AS plates`,
      name,
      [Math.max(1, Math.floor(events / SEARCHES)), SEARCHES],
    );
    const plates = rows[0].plates as string[];
    return {
      ...(await searchRounds(store, plates)),
      partitions: Number(rows[0].partitions),
      seedS,
    };
  } finally {
    await store.close();
  }
}

export interface PgAuditSearchFigures {
  /** Ten years of events, about eleven partitions. */
  tenYears: SearchFigures;
  /** The same events within one month: one partition. */
  onePartition: SearchFigures;
}

export async function pgAuditSearchFigures(
  events = AUDIT_EVENTS,
): Promise<PgAuditSearchFigures> {
  const server = await startPostgres({
    settings: { shared_buffers: "2GB", maintenance_work_mem: "512MB" },
  });
  try {
    const tenYears = await searchOver(
      server,
      "ten_years",
      events,
      TEN_YEARS_DAYS,
    );
    const onePartition = await searchOver(server, "one_partition", events, 20);
    return { tenYears, onePartition };
  } finally {
    await server.stop();
  }
}

const KEYS = [
  "audit_search_pg_p50_ms",
  "audit_search_pg_fastest_round_ms",
  "audit_search_pg_slowest_round_ms",
  "audit_search_pg_partitions",
  "audit_search_pg_one_partition_p50_ms",
  "audit_search_pg_partitions_ratio",
  "audit_seed_pg_s",
];

/** `npm run bench`'s scenario: 10,000,000 events, or 1,000,000 in a quick run. */
export async function pgAuditSearchScenario(
  quick: boolean,
  recorder: Recorder,
): Promise<void> {
  const missing = postgresMissing();
  if (missing) return recorder.skip(KEYS, missing);
  await recorder.scenario(
    KEYS,
    async () => {
      const { tenYears, onePartition } = await pgAuditSearchFigures(
        quick ? AUDIT_EVENTS / 10 : AUDIT_EVENTS,
      );
      const figures = recorder.figures;
      figures.audit_search_pg_p50_ms = tenYears.p50Ms;
      [
        figures.audit_search_pg_fastest_round_ms,
        figures.audit_search_pg_slowest_round_ms,
      ] = tenYears.spreadMs;
      figures.audit_search_pg_partitions = tenYears.partitions;
      figures.audit_search_pg_one_partition_p50_ms = onePartition.p50Ms;
      figures.audit_search_pg_partitions_ratio =
        tenYears.p50Ms / onePartition.p50Ms;
      figures.audit_seed_pg_s = tenYears.seedS;
    },
    "audit search on PostgreSQL: ten years in partitions beside one partition",
  );
}

if (import.meta.main) {
  const events = Number(process.argv[2] ?? AUDIT_EVENTS);
  console.log(JSON.stringify(await pgAuditSearchFigures(events), null, 2));
}
