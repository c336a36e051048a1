import { describe, expect, it } from "vitest";
import { groupCommit } from "./audit-group-commit.ts";

/** A write the test finishes by hand: each call's batch, and how to commit or fail it. */
function heldWrites() {
  const calls: {
    batch: readonly string[];
    commit: () => void;
    fail: (error: Error) => void;
  }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const write = (batch: readonly string[]) =>
    new Promise<string[]>((resolve, reject) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const done = () => inFlight--;
      calls.push({
        batch,
        commit: () => {
          done();
          resolve(batch.map((item) => `${item} committed`));
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
    });
  return { write, calls, mostInFlight: () => mostInFlight };
}

const turn = () => new Promise((next) => setImmediate(next));

/** Each promise's outcome once it settles, to look at before and after a commit. */
function watched<T>(promises: Promise<T>[]) {
  const settled: (PromiseSettledResult<T> | undefined)[] = promises.map(
    () => undefined,
  );
  promises.forEach((promise, index) =>
    promise.then(
      (value) => (settled[index] = { status: "fulfilled", value }),
      (reason: unknown) => (settled[index] = { status: "rejected", reason }),
    ),
  );
  return settled;
}

describe("the audit's group commit", () => {
  it("writes the appends of one turn as one batch, in order, and answers each only once it is committed", async () => {
    const { write, calls } = heldWrites();
    const commits = groupCommit(write);
    const settled = watched(
      ["a", "b", "c"].map((item) => commits.append(item)),
    );
    await turn();
    expect(calls.map((call) => call.batch)).toEqual([["a", "b", "c"]]);
    await turn();
    expect(settled).toEqual([undefined, undefined, undefined]);
    calls[0]!.commit();
    await turn();
    expect(settled).toEqual(
      ["a", "b", "c"].map((item) => ({
        status: "fulfilled",
        value: `${item} committed`,
      })),
    );
  });

  it("makes the appends that arrive while a batch is written the next batch, one batch at a time", async () => {
    const { write, calls, mostInFlight } = heldWrites();
    const commits = groupCommit(write);
    const first = commits.append("a");
    await turn();
    const later = [commits.append("b"), commits.append("c")];
    await turn();
    await turn();
    expect(calls).toHaveLength(1);
    calls[0]!.commit();
    await first;
    await turn();
    expect(calls.map((call) => call.batch)).toEqual([["a"], ["b", "c"]]);
    calls[1]!.commit();
    expect(await Promise.all(later)).toEqual(["b committed", "c committed"]);
    expect(mostInFlight()).toBe(1);
  });

  it("refuses every caller of a batch that fails, and writes the next batch", async () => {
    const { write, calls } = heldWrites();
    const commits = groupCommit(write);
    const failed = [commits.append("a"), commits.append("b")];
    await turn();
    const next = commits.append("c");
    calls[0]!.fail(new Error("disk full"));
    const results = await Promise.allSettled(failed);
    expect(results).toEqual([
      { status: "rejected", reason: new Error("disk full") },
      { status: "rejected", reason: new Error("disk full") },
    ]);
    await turn();
    calls[1]!.commit();
    expect(await next).toBe("c committed");
  });

  it("refuses every caller of a batch whose write answers for fewer events than it was given", async () => {
    const commits = groupCommit((batch: readonly string[]) => batch.slice(1));
    const results = await Promise.allSettled([
      commits.append("a"),
      commits.append("b"),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      "rejected",
      "rejected",
    ]);
  });

  it("splits a backlog into batches of at most maxBatch, in order, and drain waits for all of them", async () => {
    const batches: string[][] = [];
    const commits = groupCommit((batch: readonly string[]) => {
      batches.push([...batch]);
      return batch;
    }, 2);
    const appended = ["a", "b", "c", "d", "e"].map((item) =>
      commits.append(item),
    );
    await commits.drain();
    expect(batches).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(await Promise.all(appended)).toEqual(["a", "b", "c", "d", "e"]);
  });
});

describe("a group commit's observer (the metrics' audit write time and failures)", () => {
  it("is told of each batch written, with its seconds, and of each that failed", async () => {
    const told: (number | "failed")[] = [];
    const { write, calls } = heldWrites();
    const commits = groupCommit(write, Infinity, {
      written: (seconds) => told.push(seconds),
      failed: () => told.push("failed"),
    });
    const first = commits.append("a");
    await turn();
    calls[0]!.commit();
    await first;
    const second = commits.append("b").catch((error: Error) => error.message);
    await turn();
    calls[1]!.fail(new Error("disk full"));
    expect(await second).toBe("disk full");
    expect(told).toEqual([expect.any(Number), "failed"]);
    expect(told[0]).toBeGreaterThanOrEqual(0);
  });
});
