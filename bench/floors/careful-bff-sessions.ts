// The careful BFF's sign-in costs (careful-bff-server.ts with sessions): a session looked up by
// its token's SHA-256 in the floor's own SQLite file, and an audit event per check committed
// before the check is answered, with the events of the checks in flight written in one
// transaction (a group commit, as the proxy's audit writes: proxy/src/team/store/sqlite/).
import { createHash } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/server-kit/sqlite";

export interface AuditEvent {
  userId: string;
  registration: string;
  /** The status the check was answered with. */
  status: number;
}

export interface BffSessions {
  /** The user of the live session whose token the cookie carries, else undefined. */
  userOf(token: string | undefined): string | undefined;
  /** Resolves once the event is committed; rejects when its transaction failed. */
  audit(event: AuditEvent): Promise<void>;
}

const SESSION_HOURS = 12;
/** 256 random bits in base64url, as the proxy's session ids are. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hash = (token: string) =>
  createHash("sha256").update(token).digest("hex");

const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS audit_events (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  registration TEXT NOT NULL,
  status INTEGER NOT NULL
);`;

/** The one user the floor's session belongs to. */
const USER_ID = "bench-user";

/** Opens (creates) the file, and starts one session for `token`, the bench's one user. */
export function openBffSessions(
  databasePath: string,
  token: string,
): BffSessions {
  if (!TOKEN.test(token))
    throw new Error("a session token is 43 base64url characters");
  const db = new DatabaseSync(databasePath, { timeout: 10_000 });
  // As the proxy's store (proxy/src/team/store/sqlite/database.ts): readers never wait for the
  // audit writes, and a committed event survives a power cut.
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;");
  db.exec(TABLES_SQL);
  db.prepare(
    "INSERT OR REPLACE INTO sessions (id_hash, user_id, expires_at) VALUES (?, ?, ?)",
  ).run(hash(token), USER_ID, Date.now() + SESSION_HOURS * 3_600_000);
  const session = db.prepare(
    "SELECT user_id FROM sessions WHERE id_hash = ? AND expires_at > ?",
  );
  const insert = db.prepare(
    "INSERT INTO audit_events (at, user_id, registration, status) VALUES (?, ?, ?, ?)",
  );

  let pending: {
    event: AuditEvent & { at: number };
    resolve: () => void;
    reject: (error: unknown) => void;
  }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    try {
      inTransaction(db, () => {
        for (const { event } of batch)
          insert.run(event.at, event.userId, event.registration, event.status);
      });
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    for (const { resolve } of batch) resolve();
  };

  return {
    userOf(token) {
      if (token === undefined || !TOKEN.test(token)) return undefined;
      const row = session.get(hash(token), Date.now());
      return row === undefined ? undefined : String(row.user_id);
    },
    audit: (event) =>
      new Promise((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ event: { ...event, at: Date.now() }, resolve, reject });
      }),
  };
}
