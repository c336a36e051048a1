import { DatabaseSync } from "node:sqlite";
import { Kysely, type CompiledQuery } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NodeSqliteDialect } from "./node-sqlite-dialect.ts";
import { compileWithSlots, precompiled } from "./precompiled.ts";

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

  it("is compiled once, however often it runs: each run sends that one compiled query", async () => {
    const kysely = open();
    const compiles = vi.fn();
    const build = vi.fn((id: number) => {
      const query = kysely
        .selectFrom("notes")
        .select("body")
        .where("id", "=", id);
      const compile = query.compile.bind(query);
      return Object.assign(query, {
        compile: () => {
          compiles();
          return compile();
        },
      });
    });
    const execute = vi.spyOn(kysely, "executeQuery");
    const byId = precompiled(kysely, 1, build);
    expect(await byId(1)).toEqual([{ body: "a1" }]);
    expect(await byId(3)).toEqual([{ body: "b1" }]);
    expect(await byId(2)).toEqual([{ body: "a2" }]);
    expect(build).toHaveBeenCalledTimes(1);
    expect(compiles).toHaveBeenCalledTimes(1);
    // The same text and query tree each time; only the values change.
    const sent = execute.mock.calls.map(([query]) => query as CompiledQuery);
    expect(new Set(sent.map((query) => query.sql)).size).toBe(1);
    expect(new Set(sent.map((query) => query.query)).size).toBe(1);
    expect(sent.map((query) => query.parameters)).toEqual([[1], [3], [2]]);
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

describe("a query compiled with slots", () => {
  it("gives each call's values in place of its stand-ins, running nothing", () => {
    const kysely = open();
    const execute = vi.spyOn(kysely, "executeQuery");
    const rename = compileWithSlots(2, (id: number, body: string) =>
      kysely.updateTable("notes").set({ body }).where("id", "=", id),
    );
    const first = rename(1, "one");
    const second = rename(2, "two");
    expect(first.sql).toBe(second.sql);
    expect(first.parameters).toEqual(["one", 1]);
    expect(second.parameters).toEqual(["two", 2]);
    expect(execute).not.toHaveBeenCalled();
  });

  it("refuses a statement that leaves one of its values unused", () => {
    const kysely = open();
    expect(() =>
      // @ts-expect-error -- the arity is typed too; the run-time check covers looser types.
      compileWithSlots(2, (id: number) =>
        kysely.deleteFrom("notes").where("id", "=", id),
      ),
    ).toThrow("uses 1 of its 2 values");
  });
});
