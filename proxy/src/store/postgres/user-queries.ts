import { randomUUID } from "node:crypto";
import {
  DuplicateEmailError,
  type Role,
  type User,
  type UserStore,
} from "../proxy-store.ts";
import type { Sql } from "./database.ts";

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  disabled_at: Date | null;
  created_at: Date;
  signed_in_at: Date | null;
  oidc_link_allowed_until: number | null;
}

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  passwordHash: row.password_hash,
  oidcIssuer: row.oidc_issuer,
  oidcSubject: row.oidc_subject,
  disabledAt: row.disabled_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  signedInAt: row.signed_in_at?.toISOString() ?? null,
  oidcLinkAllowedUntil: row.oidc_link_allowed_until,
});

const one = ({ rows }: { rows: UserRow[] }) =>
  rows[0] ? toUser(rows[0]) : undefined;

const isUniqueEmail = (error: unknown) =>
  (error as { code?: string }).code === "23505" &&
  (error as { constraint?: string }).constraint === "users_email_unique";

export function userQueries(sql: Sql): UserStore {
  return {
    async createUser(user, now) {
      try {
        const { rows } = await sql<UserRow>(
          `INSERT INTO users (id, email, name, role, password_hash, oidc_issuer, oidc_subject, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
          [
            randomUUID(),
            user.email.trim(),
            user.name.trim(),
            user.role,
            user.passwordHash ?? null,
            user.oidc?.issuer ?? null,
            user.oidc?.subject ?? null,
            now,
          ],
        );
        return toUser(rows[0]!);
      } catch (error) {
        if (isUniqueEmail(error)) throw new DuplicateEmailError(user.email);
        throw error;
      }
    },
    async findUserById(id) {
      return one(await sql<UserRow>("SELECT * FROM users WHERE id = $1", [id]));
    },
    async findUserByEmail(email) {
      return one(
        await sql<UserRow>(
          "SELECT * FROM users WHERE lower(email) = lower($1)",
          [email.trim()],
        ),
      );
    },
    async findUserByOidc(issuer, subject) {
      return one(
        await sql<UserRow>(
          "SELECT * FROM users WHERE oidc_issuer = $1 AND oidc_subject = $2",
          [issuer, subject],
        ),
      );
    },
    async listUsers() {
      // In any case, as SQLite's NOCASE column sorts them.
      const { rows } = await sql<UserRow>(
        "SELECT * FROM users ORDER BY lower(email), email",
      );
      return rows.map(toUser);
    },
    async countActiveAdmins() {
      const { rows } = await sql<{ n: number }>(
        "SELECT count(*) AS n FROM users WHERE role = 'admin' AND disabled_at IS NULL",
      );
      return rows[0]!.n;
    },
    async updateUser(id, change) {
      return one(
        await sql<UserRow>(
          `UPDATE users SET
             name = coalesce($2, name),
             role = coalesce($3, role),
             password_hash = CASE WHEN $4::boolean THEN $5 ELSE password_hash END,
             disabled_at = CASE WHEN $6::boolean THEN $7::timestamptz ELSE disabled_at END,
             oidc_issuer = CASE WHEN $10::boolean THEN $8 ELSE oidc_issuer END,
             oidc_subject = CASE WHEN $10::boolean THEN $9 ELSE oidc_subject END,
             signed_in_at = coalesce(signed_in_at, $11::timestamptz),
             oidc_link_allowed_until = CASE WHEN $12::boolean THEN $13::bigint ELSE oidc_link_allowed_until END
           WHERE id = $1 RETURNING *`,
          [
            id,
            change.name ?? null,
            change.role ?? null,
            change.passwordHash !== undefined,
            change.passwordHash ?? null,
            change.disabledAt !== undefined,
            change.disabledAt ?? null,
            change.oidc?.issuer ?? null,
            change.oidc?.subject ?? null,
            change.oidc !== undefined,
            change.signedInAt ?? null,
            change.oidcLinkAllowedUntil !== undefined,
            change.oidcLinkAllowedUntil ?? null,
          ],
        ),
      );
    },
    async setFirstPassword(userId, passwordHash) {
      return one(
        await sql<UserRow>(
          `UPDATE users SET password_hash = $2
           WHERE id = $1 AND password_hash IS NULL AND oidc_subject IS NULL
             AND disabled_at IS NULL
           RETURNING *`,
          [userId, passwordHash],
        ),
      );
    },
  };
}
