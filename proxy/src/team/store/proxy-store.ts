/**
 * What the proxy keeps of its own: the team's users, their sessions, one-time links, the
 * audit log, the saved fleets (fleet-store.ts) and what their re-checks found (watch-store.ts). Asynchronous, so that a PostgreSQL store can stand behind the same interface:
 * SQLite (`sqlite/`, the embedded default) or PostgreSQL (`postgres/`), opened by
 * open-proxy-store.ts.
 */

import type { AuditAction, Role } from "@vics/shared";
import type { FleetStore } from "./fleet-store.ts";
import type { WatchStore } from "./watch-store.ts";
import type { DeliveryStore } from "./delivery-store.ts";

export { ROLES, type AuditAction, type Role } from "@vics/shared";

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** A PHC string (argon2id); null for a user who signs in only through OIDC or is invited. */
  passwordHash: string | null;
  oidcIssuer: string | null;
  oidcSubject: string | null;
  /** ISO time; a disabled user has no sessions and cannot sign in. */
  disabledAt: string | null;
  createdAt: string;
  /** ISO time of the first sign-in: an account in use is never linked by its email alone. */
  signedInAt: string | null;
  /** Until when (ms) an admin lets the next OIDC sign-in with the user's email link to it. */
  oidcLinkAllowedUntil: number | null;
}

export interface NewUser {
  email: string;
  name: string;
  role: Role;
  passwordHash?: string | null;
  oidc?: { issuer: string; subject: string };
}

export interface Session {
  /** SHA-256 of the cookie's id, hex: the id itself is never stored. */
  idHash: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  /** The absolute end, whatever the activity (ms since the epoch). */
  expiresAt: number;
  /** The OIDC id token, kept for the provider's sign-out (id_token_hint). */
  idToken: string | null;
}

export const LINK_PURPOSES = ["invite", "reset", "sign-in"] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

export interface OneTimeLink {
  tokenHash: string;
  purpose: LinkPurpose;
  userId: string;
  expiresAt: number;
}

export interface UserStore {
  /** Rejects with DuplicateEmailError when a user has that email (any case). */
  createUser(user: NewUser, now: Date): Promise<User>;
  findUserById(id: string): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<User | undefined>;
  findUserByOidc(issuer: string, subject: string): Promise<User | undefined>;
  listUsers(): Promise<User[]>;
  countActiveAdmins(): Promise<number>;
  updateUser(
    id: string,
    change: Partial<
      Pick<
        User,
        "name" | "role" | "passwordHash" | "disabledAt" | "oidcLinkAllowedUntil"
      >
    > & {
      /** null: the link is undone. */
      oidc?: { issuer: string; subject: string } | null;
      /** Kept only when none is set yet: the first sign-in. */
      signedInAt?: string;
    },
  ): Promise<User | undefined>;
  /**
   * Sets the first password of an account that has none, in one statement: only while it has
   * no password, no organisation sign-in and is not disabled. The updated user, or undefined
   * when it has any of those (a reset link used meanwhile, a link to the organisation) or is
   * gone, and then nothing changes.
   */
  setFirstPassword(
    userId: string,
    passwordHash: string,
  ): Promise<User | undefined>;
}

export interface SessionStore {
  createSession(session: Session): Promise<void>;
  findSession(idHash: string): Promise<Session | undefined>;
  /**
   * The session and its user in one read, as every signed-in request needs them; `user` is
   * undefined when the session's user is gone.
   */
  findSessionWithUser(
    idHash: string,
  ): Promise<{ session: Session; user: User | undefined } | undefined>;
  touchSession(idHash: string, lastSeenAt: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Every session of one user: sign out everywhere, a disabled user, a new password. */
  deleteUserSessions(userId: string): Promise<number>;
  /** Sessions past their idle or absolute end. */
  deleteExpiredSessions(now: number, idleMs: number): Promise<number>;
}

export interface LinkStore {
  createLink(link: OneTimeLink): Promise<void>;
  /**
   * Marks the link used and returns it, once; undefined when unknown, used, expired or of
   * none of `purposes` (then it stays unused: a link sent to the wrong endpoint is not spent).
   */
  useLink(
    tokenHash: string,
    now: number,
    purposes: readonly LinkPurpose[],
  ): Promise<OneTimeLink | undefined>;
  /** Ends a user's unused links of one purpose (a new invite replaces the old one). */
  deleteUserLinks(userId: string, purpose: LinkPurpose): Promise<void>;
}

export interface NewAuditEvent {
  at: number;
  userId: string | null;
  /** The email at the time, so the event still names someone after a change of address. */
  userEmail: string | null;
  action: AuditAction;
  /** In full: the audit log is the one place a registration is kept as it was asked. */
  registrations: readonly string[];
  /** For a check the HTTP status; for the others, words such as "ok" or "wrong password". */
  outcome: string;
  /** The proxy's own id for the request. */
  requestId: string | null;
  /** The X-Request-Id the client sent, kept apart: a client never chooses `requestId`. */
  correlationId?: string | null;
  clientAddress: string | null;
  /** What else the event needs to be read alone (a role change's old and new role). */
  detail?: Record<string, string | number | boolean | null>;
  /**
   * Set for an attempt that is counted, not kept alone (a throttled sign-in, a refusal): the
   * events with the same key are one event, the first one's, whose count grows (audit-log.ts).
   */
  aggregate?: string;
}

export interface AuditEvent extends Omit<NewAuditEvent, "aggregate"> {
  id: number;
  /** An aggregated event's attempts, and when the last came; absent on a plain event. */
  count?: number;
  lastAt?: number;
}

export interface AuditQuery {
  userId?: string;
  /** Events that name this email (lower case), for an email with no account. */
  userEmail?: string;
  registration?: string;
  /** Inclusive, ms since the epoch. */
  from?: number;
  /** Exclusive. */
  to?: number;
  /** Only checks (the actions "check.*"): a user's recent checks. */
  checksOnly?: boolean;
  /** Events older than this id (the next page). */
  before?: number;
  limit: number;
}

export interface AuditStore {
  /** Resolves once the event is committed. */
  appendAudit(event: NewAuditEvent): Promise<AuditEvent>;
  /** Newest first. */
  searchAudit(query: AuditQuery): Promise<AuditEvent[]>;
  /**
   * Deletes the events older than the store's retention period. The database itself refuses
   * to delete a younger event, or to change any event.
   */
  pruneAudit(now: number): Promise<number>;
}

export interface ProxyStore
  extends
    UserStore,
    SessionStore,
    LinkStore,
    AuditStore,
    FleetStore,
    WatchStore,
    DeliveryStore {
  /** Resolves when the database answers; for the readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`A user with the email ${email} already exists`);
    this.name = "DuplicateEmailError";
  }
}
