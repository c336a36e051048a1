// A micro-benchmark of the signed-in check's two store calls on SQLite, not part of
// `npm run bench`: the session-and-user read and the touch through the store's precompiled
// Kysely queries, beside the same statements prepared by hand on the same file. It prints
// microseconds of wall time per call (the median of five rounds, with the fastest and the slowest
// round, which show the machine's noise); decision 063 and docs/performance.md quote it.
// Run: scripts/node24 node bench/session-read.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSqliteProxyStore } from "../proxy/src/team/store/sqlite/sqlite-proxy-store.ts";
import { overRounds, type RoundFigure } from "./rounds.ts";

const CALLS = 20_000;
const ROUNDS = 5;

async function microseconds(
  call: (i: number) => unknown,
): Promise<RoundFigure> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) await call(i);
    rounds.push(((performance.now() - start) * 1000) / CALLS);
  }
  return overRounds(rounds);
}

const folder = mkdtempSync(join(tmpdir(), "vics-session-read-"));
try {
  const path = join(folder, "proxy.sqlite");
  const store = openSqliteProxyStore({ path, auditRetentionDays: 30 });
  const user = await store.createUser(
    { email: "bench@example.test", name: "Bench", role: "staff" },
    new Date(),
  );
  const idHash = "a".repeat(64);
  const now = Date.now();
  await store.createSession({
    idHash,
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + 86_400_000,
    idToken: null,
  });
  // The same statements written by hand, on a second connection to the same file.
  const db = new DatabaseSync(path);
  const read = db.prepare(
    `SELECT s.*, u.id AS u_id, u.email AS u_email, u.name AS u_name, u.role AS u_role,
       u.password_hash AS u_password_hash, u.oidc_issuer AS u_oidc_issuer,
       u.oidc_subject AS u_oidc_subject, u.disabled_at AS u_disabled_at,
       u.created_at AS u_created_at, u.signed_in_at AS u_signed_in_at,
       u.oidc_link_allowed_until AS u_oidc_link_allowed_until
     FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?`,
  );
  const touch = db.prepare(
    "UPDATE sessions SET last_seen_at = max(last_seen_at, ?) WHERE id_hash = ?",
  );
  const figures = {
    "findSessionWithUser, precompiled Kysely": await microseconds(() =>
      store.findSessionWithUser(idHash),
    ),
    "findSessionWithUser, hand-written": await microseconds(() =>
      read.get(idHash),
    ),
    "touchSession, precompiled Kysely": await microseconds((i) =>
      store.touchSession(idHash, now + i),
    ),
    "touchSession, hand-written": await microseconds((i) =>
      touch.run(now + i, idHash),
    ),
  };
  for (const [name, { median, fastest, slowest }] of Object.entries(figures))
    console.log(
      `${name}: ${median.toFixed(1)} µs a call (rounds ${fastest.toFixed(1)}-${slowest.toFixed(1)})`,
    );
  db.close();
  await store.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
