import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/shared/server/sqlite";
import type {
  LinkPurpose,
  LinkStore,
  OneTimeLink,
  Session,
  SessionStore,
} from "../proxy-store.ts";
import { toUser, type UserRow } from "./user-queries.ts";

interface SessionRow {
  id_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  id_token: string | null;
}

/** A session row joined with its user's columns, each prefixed `u_` (null when the user is gone). */
type SessionUserRow = SessionRow & {
  [K in keyof UserRow as `u_${K}`]: UserRow[K] | null;
};

/** The session and its user in one statement: every signed-in request reads both. */
const SESSION_WITH_USER = `SELECT s.id_hash, s.user_id, s.created_at, s.last_seen_at, s.expires_at, s.id_token,
  u.id AS u_id, u.email AS u_email, u.name AS u_name, u.role AS u_role, u.password_hash AS u_password_hash, u.oidc_issuer AS u_oidc_issuer, u.oidc_subject AS u_oidc_subject, u.disabled_at AS u_disabled_at, u.created_at AS u_created_at, u.signed_in_at AS u_signed_in_at, u.oidc_link_allowed_until AS u_oidc_link_allowed_until
  FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?`;

const toSession = (row: SessionRow): Session => ({
  idHash: row.id_hash,
  userId: row.user_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  idToken: row.id_token,
});

function sessionWithUser(row: SessionUserRow) {
  const user =
    row.u_id === null
      ? undefined
      : toUser({
          id: row.u_id,
          email: row.u_email!,
          name: row.u_name!,
          role: row.u_role!,
          password_hash: row.u_password_hash,
          oidc_issuer: row.u_oidc_issuer,
          oidc_subject: row.u_oidc_subject,
          disabled_at: row.u_disabled_at,
          created_at: row.u_created_at!,
          signed_in_at: row.u_signed_in_at,
          oidc_link_allowed_until: row.u_oidc_link_allowed_until,
        });
  return { session: toSession(row), user };
}

export function sessionQueries(db: DatabaseSync): SessionStore {
  const insert = db.prepare(
    "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at, id_token) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const find = db.prepare("SELECT * FROM sessions WHERE id_hash = ?");
  const findWithUser = db.prepare(SESSION_WITH_USER);
  const touch = db.prepare(
    "UPDATE sessions SET last_seen_at = max(last_seen_at, ?) WHERE id_hash = ?",
  );
  const remove = db.prepare("DELETE FROM sessions WHERE id_hash = ?");
  const removeUser = db.prepare("DELETE FROM sessions WHERE user_id = ?");
  const removeExpired = db.prepare(
    "DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?",
  );
  return {
    async createSession(session: Session) {
      insert.run(
        session.idHash,
        session.userId,
        session.createdAt,
        session.lastSeenAt,
        session.expiresAt,
        session.idToken,
      );
    },
    async findSession(idHash) {
      const row = find.get(idHash) as SessionRow | undefined;
      return row && toSession(row);
    },
    async findSessionWithUser(idHash) {
      const row = findWithUser.get(idHash) as SessionUserRow | undefined;
      return row && sessionWithUser(row);
    },
    async touchSession(idHash, lastSeenAt) {
      touch.run(lastSeenAt, idHash);
    },
    async deleteSession(idHash) {
      remove.run(idHash);
    },
    async deleteUserSessions(userId) {
      return Number(removeUser.run(userId).changes);
    },
    async deleteExpiredSessions(now, idleMs) {
      return Number(removeExpired.run(now, now - idleMs).changes);
    },
  };
}

interface LinkRow {
  token_hash: string;
  purpose: LinkPurpose;
  user_id: string;
  expires_at: number;
}

export function linkQueries(db: DatabaseSync): LinkStore {
  const insert = db.prepare(
    "INSERT INTO one_time_links (token_hash, purpose, user_id, expires_at) VALUES (?, ?, ?, ?)",
  );
  // Used at most once: the update claims it, and only an unused, unexpired link of one of the
  // purposes asked is claimed (a link sent to the wrong endpoint stays unused).
  const claim = db.prepare(
    `UPDATE one_time_links SET used_at = ?
     WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
       AND purpose IN (SELECT value FROM json_each(?))
     RETURNING *`,
  );
  const removeUser = db.prepare(
    "DELETE FROM one_time_links WHERE user_id = ? AND purpose = ? AND used_at IS NULL",
  );
  return {
    async createLink(link: OneTimeLink) {
      insert.run(link.tokenHash, link.purpose, link.userId, link.expiresAt);
    },
    async useLink(tokenHash, now, purposes) {
      const row = inTransaction(
        db,
        () =>
          claim.get(now, tokenHash, now, JSON.stringify(purposes)) as
            LinkRow | undefined,
      );
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        purpose: row.purpose,
        userId: row.user_id,
        expiresAt: row.expires_at,
      };
    },
    async deleteUserLinks(userId, purpose) {
      removeUser.run(userId, purpose);
    },
  };
}
