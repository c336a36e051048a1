import { DatabaseSync } from "node:sqlite";
import { Kysely, sql, type Generated } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NodeSqliteDialect, sqliteRunner } from "./node-sqlite-dialect.ts";

interface Tables {
  notes: { id: Generated<number>; body: string };
}

let db: DatabaseSync;
function open() {
  db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  return new Kysely<Tables>({ dialect: new NodeSqliteDialect(db) });
}
afterEach(() => db.close());

describe("Kysely over node:sqlite", () => {
  it("reads rows, and says how many rows a write changed and the id it inserted", async () => {
    const kysely = open();
    const inserted = await kysely
      .insertInto("notes")
      .values([{ body: "one" }, { body: "two" }])
      .executeTakeFirstOrThrow();
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n);
    expect(inserted.insertId).toBe(2n);
    const updated = await kysely
      .updateTable("notes")
      .set({ body: "changed" })
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(1n);
    expect(
      await kysely.selectFrom("notes").selectAll().orderBy("id").execute(),
    ).toEqual([
      { id: 1, body: "changed" },
      { id: 2, body: "two" },
    ]);
  });

  it("answers a write's RETURNING rows", async () => {
    const kysely = open();
    const row = await kysely
      .insertInto("notes")
      .values({ body: "kept" })
      .returning(["id", "body"])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ id: 1, body: "kept" });
  });

  it("prepares each statement text once", async () => {
    const kysely = open();
    const prepare = vi.spyOn(db, "prepare");
    for (const id of [1, 2, 3])
      await kysely
        .selectFrom("notes")
        .selectAll()
        .where("id", "=", id)
        .execute();
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it("refuses a Kysely transaction: the store's inTransaction is the one way to write several rows", async () => {
    const kysely = open();
    const prepare = vi.spyOn(db, "prepare");
    await expect(
      kysely.transaction().execute(async (trx) => {
        await trx.insertInto("notes").values({ body: "never" }).execute();
      }),
    ).rejects.toThrow("SQLite: use inTransaction, decision 063");
    expect(prepare).not.toHaveBeenCalled();
    expect(await kysely.selectFrom("notes").select("body").execute()).toEqual(
      [],
    );
  });

  it("refuses to stream, since the store reads whole answers", async () => {
    const kysely = open();
    const rows = kysely.selectFrom("notes").selectAll().stream();
    await expect(rows.next()).rejects.toThrow("does not stream");
    // The refused stream gave the connection back: the next query runs.
    expect(await sql<{ n: number }>`SELECT 1 AS n`.execute(kysely)).toEqual({
      rows: [{ n: 1 }],
    });
  });
});

describe("the synchronous runner", () => {
  it("answers at once, with the rows of a read or a RETURNING and the changes of a write", () => {
    const kysely = open();
    const run = sqliteRunner(db);
    const insert = kysely
      .insertInto("notes")
      .values({ body: "one" })
      .returning("id")
      .compile();
    expect(run(insert).rows).toEqual([{ id: 1 }]);
    const update = kysely
      .updateTable("notes")
      .set({ body: "changed" })
      .where("id", "=", 1)
      .compile();
    expect(run(update)).toMatchObject({ rows: [], numAffectedRows: 1n });
    const read = kysely.selectFrom("notes").select("body").compile();
    expect(run(read).rows).toEqual([{ body: "changed" }]);
  });

  it("prepares each text once, however often it runs", () => {
    const kysely = open();
    const prepare = vi.spyOn(db, "prepare");
    const run = sqliteRunner(db);
    for (const body of ["one", "two", "three"])
      run(kysely.insertInto("notes").values({ body }).compile());
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(db.prepare("SELECT count(*) AS n FROM notes").get()).toEqual({
      n: 3,
    });
  });
});
