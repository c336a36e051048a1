import { hash, randomBytes } from "node:crypto";
import type { ProxyStore, Session, User } from "../store/proxy-store.ts";
import { SESSION_COOKIE } from "../../gateway/http/session-cookie.ts";

export interface SessionTimes {
  /** A session not used for this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  absoluteMs: number;
}

/** A working day with a lunch break stays signed in; the next morning signs in again. */
export const DEFAULT_SESSION_TIMES: SessionTimes = {
  idleMs: 8 * 3_600_000,
  absoluteMs: 12 * 3_600_000,
};

/** Writing `lastSeenAt` on every request would cost a write per check: once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The store keeps only this: a stolen copy of the store does not hold usable cookies. Every
 * signed-in request hashes its cookie's id: the one-shot `hash` builds no Hash object to
 * update and digest (a sixth of the session read's CPU in a profile, issue 36).
 */
export const sessionIdHash = (id: string) => hash("sha256", id, "hex");

/** 256 random bits, as the cookie carries them. */
export const newSessionId = () => randomBytes(32).toString("base64url");

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface ActiveSession {
  session: Session;
  user: User;
}

export class Sessions {
  private readonly store: ProxyStore;
  private readonly now: () => number;
  readonly times: SessionTimes;

  constructor(store: ProxyStore, now: () => number, times: SessionTimes) {
    this.store = store;
    this.now = now;
    this.times = times;
  }

  /** A new session, with a new id: an id known before sign-in is never kept (fixation). */
  async start(user: User, idToken: string | null = null): Promise<string> {
    const id = newSessionId();
    const now = this.now();
    await this.store.createSession({
      idHash: sessionIdHash(id),
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + this.times.absoluteMs,
      idToken,
    });
    // Once: from now on the account is in use, and never linked to an OIDC identity by email.
    if (user.signedInAt === null)
      await this.store.updateUser(user.id, {
        signedInAt: new Date(now).toISOString(),
      });
    return id;
  }

  /**
   * The session and its user, or undefined when either has ended; an ended one is deleted.
   * Both are read in one statement (one round trip on PostgreSQL).
   */
  async read(id: string | undefined): Promise<ActiveSession | undefined> {
    if (id === undefined || !SESSION_ID.test(id)) return undefined;
    const idHash = sessionIdHash(id);
    const found = await this.store.findSessionWithUser(idHash);
    if (!found) return undefined;
    const { session, user } = found;
    const now = this.now();
    if (
      !user ||
      user.disabledAt !== null ||
      now >= session.expiresAt ||
      now - session.lastSeenAt >= this.times.idleMs
    ) {
      await this.store.deleteSession(idHash);
      return undefined;
    }
    if (now - session.lastSeenAt >= TOUCH_EVERY_MS) {
      await this.store.touchSession(idHash, now);
      session.lastSeenAt = now;
    }
    return { session, user };
  }

  async end(id: string): Promise<Session | undefined> {
    const idHash = sessionIdHash(id);
    const session = await this.store.findSession(idHash);
    await this.store.deleteSession(idHash);
    return session;
  }

  endAllOf(userId: string): Promise<number> {
    return this.store.deleteUserSessions(userId);
  }
}

export interface CookieSettings {
  name: string;
  secure: boolean;
}

/**
 * On https the cookie is `__Host-` and `Secure`: only this origin can set or read it. On http
 * (loopback only: the proxy refuses to listen beyond it without https) neither is possible.
 */
export function sessionCookie(
  publicOrigin: string | undefined,
): CookieSettings {
  const secure = publicOrigin?.startsWith("https:") ?? false;
  return secure
    ? { name: `__Host-${SESSION_COOKIE}`, secure: true }
    : { name: SESSION_COOKIE, secure: false };
}
