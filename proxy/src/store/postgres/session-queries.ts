import type {
  LinkPurpose,
  LinkStore,
  Session,
  SessionStore,
} from "../proxy-store.ts";
import { toUser, type UserRow } from "./user-queries.ts";
import type { Sql } from "./database.ts";

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
  FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1`;

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

export function sessionQueries(sql: Sql): SessionStore {
  return {
    async createSession(session: Session) {
      await sql(
        "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at, id_token) VALUES ($1, $2, $3, $4, $5, $6)",
        [
          session.idHash,
          session.userId,
          session.createdAt,
          session.lastSeenAt,
          session.expiresAt,
          session.idToken,
        ],
      );
    },
    async findSession(idHash) {
      const { rows } = await sql<SessionRow>(
        "SELECT * FROM sessions WHERE id_hash = $1",
        [idHash],
      );
      const row = rows[0];
      return row && toSession(row);
    },
    async findSessionWithUser(idHash) {
      const { rows } = await sql<SessionUserRow>(SESSION_WITH_USER, [idHash]);
      return rows[0] && sessionWithUser(rows[0]);
    },
    async touchSession(idHash, lastSeenAt) {
      // Two replicas may touch at once: the later time wins, whichever writes last.
      await sql(
        "UPDATE sessions SET last_seen_at = greatest(last_seen_at, $1) WHERE id_hash = $2",
        [lastSeenAt, idHash],
      );
    },
    async deleteSession(idHash) {
      await sql("DELETE FROM sessions WHERE id_hash = $1", [idHash]);
    },
    async deleteUserSessions(userId) {
      const result = await sql("DELETE FROM sessions WHERE user_id = $1", [
        userId,
      ]);
      return result.rowCount ?? 0;
    },
    async deleteExpiredSessions(now, idleMs) {
      const result = await sql(
        "DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2",
        [now, now - idleMs],
      );
      return result.rowCount ?? 0;
    },
  };
}

interface LinkRow {
  token_hash: string;
  purpose: LinkPurpose;
  user_id: string;
  expires_at: number;
}

export function linkQueries(sql: Sql): LinkStore {
  return {
    async createLink(link) {
      await sql(
        "INSERT INTO one_time_links (token_hash, purpose, user_id, expires_at) VALUES ($1, $2, $3, $4)",
        [link.tokenHash, link.purpose, link.userId, link.expiresAt],
      );
    },
    async useLink(tokenHash, now, purposes) {
      // Used at most once, by any replica: the update claims it, and only an unused,
      // unexpired link of one of the purposes asked is claimed (a link sent to the wrong
      // endpoint stays unused; a second claim waits for the first's row lock, then misses).
      const { rows } = await sql<LinkRow>(
        `UPDATE one_time_links SET used_at = $2
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
           AND purpose = ANY($3::text[])
         RETURNING token_hash, purpose, user_id, expires_at`,
        [tokenHash, now, purposes],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        purpose: row.purpose,
        userId: row.user_id,
        expiresAt: row.expires_at,
      };
    },
    async deleteUserLinks(userId, purpose) {
      await sql(
        "DELETE FROM one_time_links WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL",
        [userId, purpose],
      );
    },
  };
}
