// The store of the bench's proxy without sign-in (server.ts): the real store, except that a
// session and its user, once found, are read from memory, sessions are never touched again, and
// audit events are dropped. Only for measuring what those cost a check.
import type {
  ProxyStore,
  Session,
  User,
} from "../../proxy/src/store/proxy-store.ts";

export function withoutSignInCosts(store: ProxyStore): ProxyStore {
  const sessions = new Map<string, Session>();
  const users = new Map<string, User>();
  const signedIn = new Map<string, { session: Session; user: User }>();
  let nextId = 0;
  return {
    ...store,
    async findSession(idHash) {
      const known = sessions.get(idHash);
      if (known) return known;
      const found = await store.findSession(idHash);
      if (found) sessions.set(idHash, found);
      return found;
    },
    async findUserById(id) {
      const known = users.get(id);
      if (known) return known;
      const found = await store.findUserById(id);
      if (found) users.set(id, found);
      return found;
    },
    async findSessionWithUser(idHash) {
      const known = signedIn.get(idHash);
      if (known) return known;
      const found = await store.findSessionWithUser(idHash);
      if (found?.user) signedIn.set(idHash, { ...found, user: found.user });
      return found;
    },
    touchSession: () => Promise.resolve(),
    appendAudit: (event) => Promise.resolve({ ...event, id: ++nextId }),
  };
}
