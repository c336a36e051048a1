import { DatabaseSync } from "node:sqlite";
import { Kysely } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NodeSqliteDialect } from "./node-sqlite-dialect.ts";
import { precompiled } from "./precompiled.ts";

interface Tables {
  notes: { id: number; author: string; body: string };
}

let db: DatabaseSync;
function open() {
  db = new DatabaseSync(":memory:");
  db.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, author TEXT NOT NULL, body TEXT NOT NULL);
    INSERT INTO notes (author, body) VALUES ('ann', 'a1'), ('ann', 'a2'), ('bob', 'b1')`);
  return new Kysely<Tables>({ dialect: new NodeSqliteDialect(db) });
}
afterEach(() => db.close());

describe("a precompiled query", () => {
  it("runs with each call's values, keeping the values written into it", async () => {
    const kysely = open();
    const byAuthor = precompiled(kysely, 2, (author: string, fromId: number) =>
      kysely
        .selectFrom("notes")
        .select("body")
        .where("author", "=", author)
        .where("id", ">=", fromId)
        .where("body", "!=", "a2")
        .orderBy("id"),
    );
    expect(await byAuthor("ann", 1)).toEqual([{ body: "a1" }]);
    expect(await byAuthor("bob", 1)).toEqual([{ body: "b1" }]);
    expect(await byAuthor("bob", 4)).toEqual([]);
  });

  it("is compiled once, however often it runs", async () => {
    const kysely = open();
    const build = vi.fn((id: number) =>
      kysely.selectFrom("notes").select("body").where("id", "=", id),
    );
    const byId = precompiled(kysely, 1, build);
    await byId(1);
    await byId(3);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it("refuses a query that leaves one of its values unused", () => {
    const kysely = open();
    expect(() =>
      // @ts-expect-error -- the arity is typed too; the run-time check covers looser types.
      precompiled(kysely, 2, (id: number) =>
        kysely.selectFrom("notes").select("body").where("id", "=", id),
      ),
    ).toThrow("uses 1 of its 2 values");
  });
});
