// The store of the bench's proxy without sign-in (server.ts): the real store, except that a
// session and its user, once found, are read from memory, sessions are never touched again, and
// audit events are dropped. Only for measuring what those cost a check.
import type { ProxyStore } from "../../proxy/src/team/store/proxy-store.ts";

/** `find`, answering from memory what it once found (and `keep` accepts). */
function remembered<T>(
  find: (key: string) => Promise<T | undefined>,
  keep: (found: T) => boolean = () => true,
): (key: string) => Promise<T | undefined> {
  const known = new Map<string, T>();
  return async (key) => {
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const found = await find(key);
    if (found !== undefined && keep(found)) known.set(key, found);
    return found;
  };
}

export function withoutSignInCosts(store: ProxyStore): ProxyStore {
  let nextId = 0;
  return {
    ...store,
    findSession: remembered((idHash) => store.findSession(idHash)),
    findUserById: remembered((id) => store.findUserById(id)),
    // A session whose user is gone is asked again, as the real store would answer it.
    findSessionWithUser: remembered(
      (idHash) => store.findSessionWithUser(idHash),
      (found) => found.user !== undefined,
    ),
    touchSession: () => Promise.resolve(),
    appendAudit: (event) => Promise.resolve({ ...event, id: ++nextId }),
  };
}
