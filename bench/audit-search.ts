// The audit search figure for `npm run bench`: a proxy store holding 10,000,000 audit events
// (one registration each, from 1,000,000 plates, so each plate has about ten events), then the
// admin page's search by registration, first page of 50, timed through the store as the proxy
// calls it. Three rounds of 200 searches; the figure is the median round's p50, with the
// spread of the rounds.
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSqliteProxyStore } from "../proxy/src/team/store/sqlite/sqlite-proxy-store.ts";
import type { ProxyStore } from "../proxy/src/team/store/proxy-store.ts";
import { percentile } from "./percentile.ts";

export const AUDIT_EVENTS = 10_000_000;
const PLATES = 1_000_000;
const ROUNDS = 3;
export const SEARCHES = 200;

/**
 * Plate n of the bench's million: two letters, two digits, three letters. Under 1,000,000 the
 * plates sort as their numbers do (the first six characters are n in a mixed radix, highest
 * digit first; the seventh never decides), so plates made for n = 0, 1, 2... are already in
 * the registration index's order.
 */
const plateSql = (n: string) =>
  `char(65 + (${n} / 676000) % 26, 65 + (${n} / 26000) % 26) || printf('%02d', (${n} / 260) % 100) || char(65 + (${n} / 10) % 26, 65 + ${n} % 10, 65 + (${n} / 100) % 26)`;

/** Event i asks about plate (i × STRIDE) mod PLATES: a plate's events are spread over time. */
const STRIDE = 7919;

/** STRIDE's inverse modulo PLATES: plate p's events are p × inverse (mod PLATES) + k × PLATES. */
function strideInverse(): number {
  for (let inverse = 1; inverse < PLATES; inverse++)
    if ((STRIDE * inverse) % PLATES === 1) return inverse;
  throw new Error(`${STRIDE} has no inverse modulo ${PLATES}`);
}

/**
 * Fills the store's tables straight in SQL, as months of checks would have. The file is the
 * bench's own, thrown away after: while seeding there is no journal, no sync, no foreign-key
 * lookup per row and no user index (built once after, from sorted data, instead of row by row),
 * and the registration index is written in its own order, without a sort. The file is then
 * put back to WAL, as the store opens it.
 */
function seedEvents(path: string, events: number): void {
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: false });
  db.exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
    PRAGMA locking_mode = EXCLUSIVE; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -1048576;`);
  const start = Date.now() - 30 * 86_400_000;
  db.exec("BEGIN");
  db.exec(`
    DROP INDEX audit_by_user;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${events})
    INSERT INTO audit_events (id, at, user_id, user_email, action, registrations, outcome, request_id, client_address)
    SELECT i, ${start} + i * 250, 'u' || (i % 200), 'user' || (i % 200) || '@example.org',
      'check.insurance', json_array(${plateSql(`((i * ${STRIDE}) % ${PLATES})`)}), '200', 'r' || i, '10.0.0.1'
    FROM n;
    WITH RECURSIVE
      p(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM p WHERE n < ${PLATES - 1}),
      k(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM k WHERE m < ${Math.ceil(events / PLATES) - 1}),
      e(n, id) AS (
        SELECT n, (n * ${strideInverse()} + ${PLATES - 1}) % ${PLATES} + 1 + m * ${PLATES}
        FROM p CROSS JOIN k
      )
    INSERT INTO audit_registrations (registration, event_id)
    SELECT ${plateSql("n")}, id FROM e WHERE id <= ${events};
    CREATE INDEX audit_by_user ON audit_events (user_id, id);
  `);
  db.exec("COMMIT");
  db.exec("PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = WAL;");
  db.close();
}

export async function auditSearchFigures(
  dataDir: string,
  events = AUDIT_EVENTS,
): Promise<{ seedS: number; p50Ms: number; spreadMs: [number, number] }> {
  const path = join(dataDir, "audit-bench.sqlite");
  await openSqliteProxyStore({ path, auditRetentionDays: 400 }).close();
  const seeded = performance.now();
  seedEvents(path, events);
  const seedS = (performance.now() - seeded) / 1000;
  const store = openSqliteProxyStore({ path, auditRetentionDays: 400 });
  const probe = new DatabaseSync(path, { readOnly: true });
  const plates = probe
    .prepare(
      `SELECT registration FROM audit_registrations WHERE event_id % ? = 0 LIMIT ?`,
    )
    .all(Math.max(1, Math.floor(events / SEARCHES)), SEARCHES)
    .map((row) => String(row.registration));
  probe.close();
  const rounds = await searchRounds(store, plates);
  await store.close();
  return { seedS, ...rounds };
}

/**
 * The admin page's search by each plate, first page, through the store as the proxy calls it,
 * in ROUNDS rounds: the median round's p50, with the fastest and slowest round's.
 */
export async function searchRounds(
  store: Pick<ProxyStore, "searchAudit">,
  plates: readonly string[],
): Promise<{ p50Ms: number; spreadMs: [number, number] }> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times: number[] = [];
    for (const registration of plates) {
      const started = performance.now();
      const found = await store.searchAudit({ registration, limit: 51 });
      times.push(performance.now() - started);
      if (found[0]?.registrations[0] !== registration)
        throw new Error(`the audit search found nothing for ${registration}`);
    }
    rounds.push(percentile(times, 50));
  }
  const sorted = [...rounds].sort((a, b) => a - b);
  return { p50Ms: sorted[1]!, spreadMs: [sorted[0]!, sorted.at(-1)!] };
}
