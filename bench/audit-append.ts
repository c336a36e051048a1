// A micro-benchmark of the signed-in check's audit append on SQLite, not part of
// `npm run bench`: the CPU a committed event costs through the proxy's store (appendAudit, its
// group commit, its statements, its indexes) beside the careful BFF's audit (the floor's one
// table of four columns), and the proxy's append again with one of the things the floor does not
// do taken away, each on a file of its own: an index the audit's search reads, or the per-plate
// row. It says, per µs, which feature costs what (docs/performance.md quotes it).
//
// Each variant appends BATCH events at once (the checks in flight together, which the group
// commit writes in one transaction) until `events` are written, on a file that already holds
// `prefill` events. CPU is the process's user and system time (the commit's write and fsync
// included), per event; the median of `rounds` interleaved rounds, with the fastest and slowest.
// Run: scripts/node24 node bench/audit-append.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSqliteProxyStore } from "../proxy/src/team/store/sqlite/sqlite-proxy-store.ts";
import type {
  NewAuditEvent,
  ProxyStore,
} from "../proxy/src/team/store/proxy-store.ts";
import { openBffSessions } from "./floors/careful-bff-sessions.ts";
import { overRounds, roundOrder, type RoundFigure } from "./rounds.ts";

/** The checks in flight together, whose events one transaction commits. */
const BATCH = 16;
const TOKEN = "b".repeat(43);
const PLATES = Array.from(
  { length: 1_000 },
  (_, i) => `AB${String(i).padStart(3, "0")}CD`,
);

/** A signed-in insurance check's event, as audited-forward.ts writes it. */
const checkEvent = (i: number, registrations = true): NewAuditEvent => ({
  at: Date.now(),
  userId: "bench-user",
  userEmail: "bench@example.test",
  action: "check.insurance",
  registrations: registrations ? [PLATES[i % PLATES.length]!] : [],
  outcome: "200",
  requestId: `req-${i.toString(36).padStart(12, "0")}`,
  correlationId: null,
  clientAddress: "127.0.0.1",
  detail: { verdict: "insured" },
});

interface Variant {
  name: string;
  /** Appends event `i` and resolves once it is committed. */
  append(i: number): Promise<unknown>;
  /** How many events its file holds. */
  count(): number;
  close(): Promise<void>;
}

/** The proxy's store on a new file, with `drop`'s indexes dropped before it opens again. */
async function proxyVariant(
  folder: string,
  name: string,
  prefill: number,
  {
    drop = [],
    registrations = true,
  }: { drop?: string[]; registrations?: boolean },
): Promise<Variant> {
  const path = join(folder, `${name.replaceAll(/\W+/g, "-")}.sqlite`);
  await openSqliteProxyStore({ path, auditRetentionDays: 30 }).close();
  const raw = new DatabaseSync(path);
  // Fails loudly when an index is renamed: the variant would measure nothing.
  for (const index of drop) raw.exec(`DROP INDEX ${index}`);
  raw.close();
  const store: ProxyStore = openSqliteProxyStore({
    path,
    auditRetentionDays: 30,
  });
  await cpuPerEvent(
    (i) => store.appendAudit(checkEvent(i, registrations)),
    prefill,
  );
  const reader = new DatabaseSync(path, { readOnly: true });
  return {
    name,
    append: (i) => store.appendAudit(checkEvent(i, registrations)),
    count: () =>
      Number(reader.prepare("SELECT count(*) AS n FROM audit_events").get()!.n),
    close: async () => {
      reader.close();
      await store.close();
    },
  };
}

function floorVariant(folder: string, prefill: number): Promise<Variant> {
  const path = join(folder, "floor.sqlite");
  const sessions = openBffSessions(path, TOKEN);
  const append = (i: number) =>
    sessions.audit({
      userId: "bench-user",
      registration: PLATES[i % PLATES.length]!,
      status: 200,
    });
  const reader = new DatabaseSync(path, { readOnly: true });
  return cpuPerEvent(append, prefill).then(() => ({
    name: "floor: the careful BFF's audit",
    append,
    count: () =>
      Number(reader.prepare("SELECT count(*) AS n FROM audit_events").get()!.n),
    close: async () => reader.close(),
  }));
}

/** Appends `events` events, BATCH at a time; CPU µs per event. */
async function cpuPerEvent(
  append: (i: number) => Promise<unknown>,
  events: number,
  from = 0,
): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < events; i += BATCH)
    await Promise.all(
      Array.from({ length: Math.min(BATCH, events - i) }, (_, j) =>
        append(from + i + j),
      ),
    );
  const { user, system } = process.cpuUsage(start);
  return (user + system) / events;
}

export interface AuditAppendFigures {
  figures: Record<string, RoundFigure>;
  /** Each variant's events on file at the end: the prefill and every round's. */
  written: Record<string, number>;
}

/**
 * Measures every variant in `rounds` interleaved rounds of `events` events each, on files that
 * already hold `prefill` events (an index costs more as it grows).
 */
export async function measureAuditAppend({
  rounds = 5,
  events = 8_000,
  prefill = 20_000,
} = {}): Promise<AuditAppendFigures> {
  const folder = mkdtempSync(join(tmpdir(), "vics-audit-append-"));
  const variants: Variant[] = [];
  try {
    variants.push(
      await floorVariant(folder, prefill),
      await proxyVariant(folder, "proxy: appendAudit as shipped", prefill, {}),
      await proxyVariant(folder, "proxy without audit_by_time", prefill, {
        drop: ["audit_by_time"],
      }),
      await proxyVariant(folder, "proxy without audit_by_user", prefill, {
        drop: ["audit_by_user"],
      }),
      await proxyVariant(folder, "proxy without audit_by_email", prefill, {
        drop: ["audit_by_email"],
      }),
      await proxyVariant(folder, "proxy without the per-plate row", prefill, {
        registrations: false,
      }),
      await proxyVariant(folder, "proxy without all four", prefill, {
        drop: ["audit_by_time", "audit_by_user", "audit_by_email"],
        registrations: false,
      }),
    );
    const taken = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    for (let round = 0; round < rounds; round++)
      for (const variant of roundOrder(variants, round))
        taken
          .get(variant.name)!
          .push(
            await cpuPerEvent(variant.append, events, prefill + round * events),
          );
    return {
      figures: Object.fromEntries(
        [...taken].map(([name, figures]) => [name, overRounds(figures)]),
      ),
      written: Object.fromEntries(variants.map((v) => [v.name, v.count()])),
    };
  } finally {
    for (const variant of variants) await variant.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { figures } = await measureAuditAppend();
  const shipped = figures["proxy: appendAudit as shipped"]!.median;
  for (const [name, { median, fastest, slowest }] of Object.entries(figures))
    console.log(
      `${name}: ${median.toFixed(1)} µs of CPU an event (rounds ${fastest.toFixed(1)}-${slowest.toFixed(1)}), ${(shipped - median).toFixed(1)} less than as shipped`,
    );
}
