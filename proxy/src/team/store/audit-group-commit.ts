/**
 * Writes one batch in one transaction (or one statement) and returns what was committed, one
 * result per item in the batch's order; throws if nothing of it was committed.
 */
export type WriteBatch<Item, Committed> = (
  batch: readonly Item[],
) => readonly Committed[] | Promise<readonly Committed[]>;

/** Told of each batch: written, in how many seconds, or failed (the metrics). */
export interface BatchObserver {
  written(seconds: number): void;
  failed(): void;
}

export interface GroupCommit<Item, Committed> {
  /** Resolves once the transaction holding the item has committed; rejects if it failed. */
  append(item: Item): Promise<Committed>;
  /** Resolves once every item appended so far is written (or refused): before closing. */
  drain(): Promise<void>;
}

interface Waiting<Item, Committed> {
  item: Item;
  resolve: (committed: Committed) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the audit append (issue 36): the events of the checks in flight together
 * are committed in one transaction, with one sync to disk or one round trip, instead of one
 * each, and each check is still answered only once its own event is committed. The appends of
 * one turn of the event loop, and those that arrive while a batch is being written, are the
 * next batch; one batch is written at a time, at most `maxBatch` items.
 */
export function groupCommit<Item, Committed>(
  write: WriteBatch<Item, Committed>,
  maxBatch = Infinity,
  observer?: BatchObserver,
): GroupCommit<Item, Committed> {
  let waiting: Waiting<Item, Committed>[] = [];
  let writing: Promise<void> | undefined;

  const writeBatches = async () => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      const started = performance.now();
      try {
        const committed = await write(batch.map(({ item }) => item));
        if (committed.length !== batch.length)
          throw new Error(
            `audit batch of ${batch.length} events returned ${committed.length}`,
          );
        observer?.written((performance.now() - started) / 1000);
        batch.forEach(({ resolve }, index) => resolve(committed[index]!));
      } catch (error) {
        observer?.failed();
        // Nothing of the batch was committed: every request of it fails, none answers unrecorded.
        for (const { reject } of batch) reject(error);
      }
    }
    writing = undefined;
  };

  return {
    append(item) {
      return new Promise<Committed>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        // The next turn of the event loop: the requests answered in this one join the batch.
        writing ??= new Promise((next) => setImmediate(next)).then(
          writeBatches,
        );
      });
    },
    async drain() {
      while (writing) await writing;
    },
  };
}
