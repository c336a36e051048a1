import { randomUUID } from "node:crypto";
import {
  DuplicateEmailError,
  type User,
  type UserStore,
} from "../proxy-store.ts";
import type { Instant, UsersTable } from "./database.ts";
import type { KyselyStore } from "./spelling.ts";

const isoTime = (instant: Instant) =>
  typeof instant === "string" ? instant : instant.toISOString();

export const toUser = (row: UsersTable): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  passwordHash: row.password_hash,
  oidcIssuer: row.oidc_issuer,
  oidcSubject: row.oidc_subject,
  disabledAt: row.disabled_at === null ? null : isoTime(row.disabled_at),
  createdAt: isoTime(row.created_at),
  signedInAt: row.signed_in_at == null ? null : isoTime(row.signed_in_at),
  oidcLinkAllowedUntil: row.oidc_link_allowed_until ?? null,
});

const one = (row: UsersTable | undefined) => (row ? toUser(row) : undefined);

/** Each engine names the broken uniqueness its own way. */
const isUniqueEmail = (error: unknown) =>
  error instanceof Error &&
  (/UNIQUE constraint failed: users\.email/.test(error.message) ||
    ((error as { code?: string }).code === "23505" &&
      (error as { constraint?: string }).constraint === "users_email_unique"));

export function userQueries({ db, spelling }: KyselyStore): UserStore {
  const users = () => db.selectFrom("users").selectAll();
  return {
    async createUser(user, now) {
      try {
        const row = await db
          .insertInto("users")
          .values({
            id: randomUUID(),
            email: user.email.trim(),
            name: user.name.trim(),
            role: user.role,
            password_hash: user.passwordHash ?? null,
            oidc_issuer: user.oidc?.issuer ?? null,
            oidc_subject: user.oidc?.subject ?? null,
            created_at: now.toISOString(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toUser(row);
      } catch (error) {
        if (isUniqueEmail(error)) throw new DuplicateEmailError(user.email);
        throw error;
      }
    },
    async findUserById(id) {
      return one(await users().where("id", "=", id).executeTakeFirst());
    },
    async findUserByEmail(email) {
      // Any case: SQLite's column is COLLATE NOCASE (and indexed so); PostgreSQL's unique
      // index is on lower(email).
      const query = spelling.caselessEmail
        ? users().where("email", "=", email.trim())
        : users().where((eb) =>
            eb(
              eb.fn("lower", ["email"]),
              "=",
              eb.fn("lower", [eb.val(email.trim())]),
            ),
          );
      return one(await query.executeTakeFirst());
    },
    async findUserByOidc(issuer, subject) {
      return one(
        await users()
          .where("oidc_issuer", "=", issuer)
          .where("oidc_subject", "=", subject)
          .executeTakeFirst(),
      );
    },
    async listUsers() {
      // In any case, as SQLite's NOCASE column sorts them.
      const query = spelling.caselessEmail
        ? users().orderBy("email")
        : users()
            .orderBy((eb) => eb.fn("lower", ["email"]))
            .orderBy("email");
      return (await query.execute()).map(toUser);
    },
    async countActiveAdmins() {
      const { n } = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("role", "=", "admin")
        .where("disabled_at", "is", null)
        .executeTakeFirstOrThrow();
      return n;
    },
    async updateUser(id, change) {
      const row = await db
        .updateTable("users")
        .set((eb) => ({
          ...(change.name !== undefined && { name: change.name }),
          ...(change.role !== undefined && { role: change.role }),
          ...(change.passwordHash !== undefined && {
            password_hash: change.passwordHash,
          }),
          ...(change.disabledAt !== undefined && {
            disabled_at: change.disabledAt,
          }),
          ...(change.oidc !== undefined && {
            oidc_issuer: change.oidc?.issuer ?? null,
            oidc_subject: change.oidc?.subject ?? null,
          }),
          ...(change.oidcLinkAllowedUntil !== undefined && {
            oidc_link_allowed_until: change.oidcLinkAllowedUntil,
          }),
          // Kept only when none is set yet (the first sign-in); always in the statement, so
          // that an empty change still answers the user as it is.
          signed_in_at: eb.fn.coalesce(
            "signed_in_at",
            eb.val<Instant | null>(change.signedInAt ?? null),
          ),
        }))
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return one(row);
    },
    async setFirstPassword(userId, passwordHash) {
      const row = await db
        .updateTable("users")
        .set({ password_hash: passwordHash })
        .where("id", "=", userId)
        .where("password_hash", "is", null)
        .where("oidc_subject", "is", null)
        .where("disabled_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      return one(row);
    },
  };
}
