import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  DuplicateEmailError,
  type NewUser,
  type Role,
  type User,
  type UserStore,
} from "../proxy-store.ts";

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  disabled_at: string | null;
  created_at: string;
  signed_in_at: string | null;
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
  disabledAt: row.disabled_at,
  createdAt: row.created_at,
  signedInAt: row.signed_in_at ?? null,
  oidcLinkAllowedUntil: row.oidc_link_allowed_until ?? null,
});

const isUniqueEmail = (error: unknown) =>
  error instanceof Error &&
  /UNIQUE constraint failed: users\.email/.test(error.message);

export function userQueries(db: DatabaseSync): UserStore {
  const insert = db.prepare(
    `INSERT INTO users (id, email, name, role, password_hash, oidc_issuer, oidc_subject, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  );
  const byId = db.prepare("SELECT * FROM users WHERE id = ?");
  const byEmail = db.prepare("SELECT * FROM users WHERE email = ?");
  const byOidc = db.prepare(
    "SELECT * FROM users WHERE oidc_issuer = ? AND oidc_subject = ?",
  );
  const all = db.prepare("SELECT * FROM users ORDER BY email");
  const admins = db.prepare(
    "SELECT count(*) AS n FROM users WHERE role = 'admin' AND disabled_at IS NULL",
  );
  const update = db.prepare(
    `UPDATE users SET
       name = coalesce(:name, name),
       role = coalesce(:role, role),
       password_hash = CASE WHEN :setPassword THEN :passwordHash ELSE password_hash END,
       disabled_at = CASE WHEN :setDisabled THEN :disabledAt ELSE disabled_at END,
       oidc_issuer = CASE WHEN :setOidc THEN :issuer ELSE oidc_issuer END,
       oidc_subject = CASE WHEN :setOidc THEN :subject ELSE oidc_subject END,
       signed_in_at = coalesce(signed_in_at, :signedInAt),
       oidc_link_allowed_until = CASE WHEN :setLinkAllowed THEN :linkAllowedUntil ELSE oidc_link_allowed_until END
     WHERE id = :id RETURNING *`,
  );
  const firstPassword = db.prepare(
    `UPDATE users SET password_hash = ?
     WHERE id = ? AND password_hash IS NULL AND oidc_subject IS NULL AND disabled_at IS NULL
     RETURNING *`,
  );
  const one = (row: unknown) => (row ? toUser(row as UserRow) : undefined);

  return {
    async createUser(user: NewUser, now: Date) {
      try {
        return toUser(
          insert.get(
            randomUUID(),
            user.email.trim(),
            user.name.trim(),
            user.role,
            user.passwordHash ?? null,
            user.oidc?.issuer ?? null,
            user.oidc?.subject ?? null,
            now.toISOString(),
          ) as unknown as UserRow,
        );
      } catch (error) {
        if (isUniqueEmail(error)) throw new DuplicateEmailError(user.email);
        throw error;
      }
    },
    async findUserById(id) {
      return one(byId.get(id));
    },
    async findUserByEmail(email) {
      return one(byEmail.get(email.trim()));
    },
    async findUserByOidc(issuer, subject) {
      return one(byOidc.get(issuer, subject));
    },
    async listUsers() {
      return (all.all() as unknown as UserRow[]).map(toUser);
    },
    async countActiveAdmins() {
      return (admins.get() as { n: number }).n;
    },
    async updateUser(id, change) {
      return one(
        update.get({
          id,
          name: change.name ?? null,
          role: change.role ?? null,
          setPassword: change.passwordHash !== undefined ? 1 : 0,
          passwordHash: change.passwordHash ?? null,
          setDisabled: change.disabledAt !== undefined ? 1 : 0,
          disabledAt: change.disabledAt ?? null,
          setOidc: change.oidc !== undefined ? 1 : 0,
          issuer: change.oidc?.issuer ?? null,
          subject: change.oidc?.subject ?? null,
          signedInAt: change.signedInAt ?? null,
          setLinkAllowed: change.oidcLinkAllowedUntil !== undefined ? 1 : 0,
          linkAllowedUntil: change.oidcLinkAllowedUntil ?? null,
        }),
      );
    },
    async setFirstPassword(userId, passwordHash) {
      return one(firstPassword.get(passwordHash, userId));
    },
  };
}
