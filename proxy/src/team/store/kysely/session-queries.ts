import type { LinkStore, Session, SessionStore } from "../proxy-store.ts";
import type { Db, SessionsTable } from "./database.ts";
import type { KyselyStore } from "./spelling.ts";
import { precompiled } from "./precompiled.ts";
import { toUser } from "./user-queries.ts";

const toSession = (row: SessionsTable): Session => ({
  idHash: row.id_hash,
  userId: row.user_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  idToken: row.id_token,
});

export function sessionQueries({ db, spelling }: KyselyStore): SessionStore {
  const { later } = spelling;
  // The session and its user in one statement: every signed-in request reads both. Compiled
  // once, as is the touch that follows it.
  const findWithUser = precompiled(db, 1, (idHash: string) =>
    db
      .selectFrom("sessions as s")
      .leftJoin("users as u", "u.id", "s.user_id")
      .select([
        "s.id_hash",
        "s.user_id",
        "s.created_at",
        "s.last_seen_at",
        "s.expires_at",
        "s.id_token",
        "u.id as u_id",
        "u.email as u_email",
        "u.name as u_name",
        "u.role as u_role",
        "u.password_hash as u_password_hash",
        "u.oidc_issuer as u_oidc_issuer",
        "u.oidc_subject as u_oidc_subject",
        "u.disabled_at as u_disabled_at",
        "u.created_at as u_created_at",
        "u.signed_in_at as u_signed_in_at",
        "u.oidc_link_allowed_until as u_oidc_link_allowed_until",
      ])
      .where("s.id_hash", "=", idHash),
  );
  // Two replicas may touch at once: the later time wins, whichever writes last.
  const touch = precompiled(db, 2, (idHash: string, lastSeenAt: number) =>
    db
      .updateTable("sessions")
      .set((eb) => ({
        last_seen_at: eb.fn<number>(later, [
          "last_seen_at",
          eb.val(lastSeenAt),
        ]),
      }))
      .where("id_hash", "=", idHash),
  );
  return {
    async createSession(session) {
      await db
        .insertInto("sessions")
        .values({
          id_hash: session.idHash,
          user_id: session.userId,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          expires_at: session.expiresAt,
          id_token: session.idToken,
        })
        .execute();
    },
    async findSession(idHash) {
      const row = await db
        .selectFrom("sessions")
        .selectAll()
        .where("id_hash", "=", idHash)
        .executeTakeFirst();
      return row && toSession(row);
    },
    async findSessionWithUser(idHash) {
      const [row] = await findWithUser(idHash);
      if (!row) return undefined;
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
    },
    async touchSession(idHash, lastSeenAt) {
      await touch(idHash, lastSeenAt);
    },
    async deleteSession(idHash) {
      await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
    },
    async deleteUserSessions(userId) {
      const { numDeletedRows } = await db
        .deleteFrom("sessions")
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      return Number(numDeletedRows);
    },
    async deleteExpiredSessions(now, idleMs) {
      const { numDeletedRows } = await db
        .deleteFrom("sessions")
        .where((eb) =>
          eb.or([
            eb("expires_at", "<=", now),
            eb("last_seen_at", "<=", now - idleMs),
          ]),
        )
        .executeTakeFirstOrThrow();
      return Number(numDeletedRows);
    },
  };
}

export function linkQueries(db: Db): LinkStore {
  return {
    async createLink(link) {
      await db
        .insertInto("one_time_links")
        .values({
          token_hash: link.tokenHash,
          purpose: link.purpose,
          user_id: link.userId,
          expires_at: link.expiresAt,
        })
        .execute();
    },
    async useLink(tokenHash, now, purposes) {
      // A link of none of the purposes asked is never claimed (and `IN ()` is no SQL).
      if (purposes.length === 0) return undefined;
      // Used at most once, by any replica: the one statement claims it, and only an unused,
      // unexpired link of one of the purposes asked is claimed (a link sent to the wrong
      // endpoint stays unused; in PostgreSQL a second claim waits for the first's row lock,
      // then misses).
      const row = await db
        .updateTable("one_time_links")
        .set({ used_at: now })
        .where("token_hash", "=", tokenHash)
        .where("used_at", "is", null)
        .where("expires_at", ">", now)
        .where("purpose", "in", purposes)
        .returning(["token_hash", "purpose", "user_id", "expires_at"])
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        purpose: row.purpose,
        userId: row.user_id,
        expiresAt: row.expires_at,
      };
    },
    async deleteUserLinks(userId, purpose) {
      await db
        .deleteFrom("one_time_links")
        .where("user_id", "=", userId)
        .where("purpose", "=", purpose)
        .where("used_at", "is", null)
        .execute();
    },
  };
}
