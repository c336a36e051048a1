// Web Locks for jsdom, which has none. One lock table stands for the browser; each
// manager over it stands for a tab. As in a browser, query() reads the locks held when it is
// asked and answers a task later, and a released lock leaves the table a moment after its
// holder lets go (a browser tells its lock manager in another process); request() settles only
// once the lock has left the table.
const RELEASE_LAG_MS = 20;

export interface FakeLocks {
  /** A manager for one more tab of the same browser. */
  tab(): LockManager;
  /** Queries answered so far, over every tab. */
  readonly queriesAnswered: number;
}

export function fakeLocks(): FakeLocks {
  const held = new Set<string>();
  let queriesAnswered = 0;
  const tab = (): LockManager =>
    ({
      async request(
        name: string,
        options: LockOptions,
        callback: LockGrantedCallback<unknown>,
      ) {
        if (held.has(name)) {
          if (!options.ifAvailable)
            throw new Error("The fake locks only try locks (ifAvailable).");
          return callback(null);
        }
        held.add(name);
        try {
          return await callback({ name, mode: "exclusive" });
        } finally {
          await new Promise((resolve) => setTimeout(resolve, RELEASE_LAG_MS));
          held.delete(name);
        }
      },
      async query() {
        const snapshot = [...held].map((name) => ({ name }));
        await new Promise((resolve) => setTimeout(resolve, 0));
        queriesAnswered += 1;
        return { held: snapshot, pending: [] };
      },
    }) as unknown as LockManager;
  return {
    tab,
    get queriesAnswered() {
      return queriesAnswered;
    },
  };
}

/** Gives this test's page (jsdom's navigator) a tab of `locks`; call the result to take it away. */
export function useFakeLocks(manager: LockManager): () => void {
  Object.defineProperty(navigator, "locks", {
    value: manager,
    configurable: true,
  });
  return () => {
    Reflect.deleteProperty(navigator, "locks");
  };
}
