// What a scenario starts beyond the bench's child processes (a PostgreSQL server, the cluster):
// each registered with how to close it, so the bench's clean-up closes whatever is still open
// when a run is stopped part-way (Ctrl-C), and a scenario that ends closes its own once.

export interface OpenResources {
  /** Registers `close`; returns it made idempotent, and forgotten once it has run. */
  add(close: () => Promise<void>): () => Promise<void>;
  /** Closes every resource still open, the newest first; one failing does not stop the rest. */
  closeAll(): Promise<void>;
}

export function openResources(): OpenResources {
  const open: Array<() => Promise<void>> = [];
  return {
    add(close) {
      let closing: Promise<void> | undefined;
      const once = () => {
        closing ??= (async () => {
          open.splice(open.indexOf(once), 1);
          await close();
        })();
        return closing;
      };
      open.push(once);
      return once;
    },
    async closeAll() {
      for (const close of open.toReversed()) await close().catch(() => {});
    },
  };
}
