// The audit search figure for `npm run bench`: a proxy store holding 10,000,000 audit events
// (one registration each, from 1,000,000 plates, so each plate has about ten events), then the
// admin page's search by registration, first page of 50, timed through the store as the proxy
// calls it. Three rounds of 200 searches; the figure is the median round's p50, with the
// spread of the rounds.
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSqliteProxyStore } from "../proxy/src/store/sqlite/sqlite-proxy-store.ts";
import { percentile } from "./percentile.ts";

export const AUDIT_EVENTS = 10_000_000;
const PLATES = 1_000_000;
const ROUNDS = 3;
const SEARCHES = 200;

/** Plate n of the bench's million: two letters, two digits, three letters. */
const plateSql = (n: string) =>
  `char(65 + (${n} / 676000) % 26, 65 + (${n} / 26000) % 26) || printf('%02d', (${n} / 260) % 100) || char(65 + (${n} / 10) % 26, 65 + ${n} % 10, 65 + (${n} / 100) % 26)`;

/** Fills the store's tables straight in SQL, as months of checks would have. */
function seedEvents(path: string, events: number): void {
  const db = new DatabaseSync(path);
  // Seeding only: no fsync, and a page cache large enough for the registration index.
  db.exec("PRAGMA synchronous = OFF; PRAGMA cache_size = -1048576;");
  const start = Date.now() - 30 * 86_400_000;
  db.exec("BEGIN");
  db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${events})
    INSERT INTO audit_events (id, at, user_id, user_email, action, registrations, outcome, request_id, client_address)
    SELECT i, ${start} + i * 250, 'u' || (i % 200), 'user' || (i % 200) || '@example.org',
      'check.insurance', json_array(${plateSql(`((i * 7919) % ${PLATES})`)}), '200', 'r' || i, '10.0.0.1'
    FROM n;
    INSERT INTO audit_registrations (registration, event_id)
    SELECT registrations ->> 0, id FROM audit_events ORDER BY registrations ->> 0, id;
  `);
  db.exec("COMMIT");
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
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times: number[] = [];
    for (const registration of plates) {
      const started = performance.now();
      const found = await store.searchAudit({ registration, limit: 51 });
      times.push(performance.now() - started);
      if (found.length === 0)
        throw new Error(`the audit search found nothing for ${registration}`);
    }
    rounds.push(percentile(times, 50));
  }
  await store.close();
  const sorted = [...rounds].sort((a, b) => a - b);
  return { seedS, p50Ms: sorted[1]!, spreadMs: [sorted[0]!, sorted.at(-1)!] };
}
