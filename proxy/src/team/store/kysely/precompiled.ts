import type { Compilable, CompiledQuery, Kysely } from "kysely";

const SLOT = Symbol("precompiled slot");
interface Slot {
  readonly [SLOT]: number;
}
const isSlot = (value: unknown): value is Slot =>
  typeof value === "object" && value !== null && SLOT in value;

/**
 * The texts run again and again, each of a fixed shape: PostgreSQL's dialect runs each as a
 * named prepared statement (reaching-postgres-dialect.ts). Every query compiled once is one;
 * `prepared` adds another (the audit search's few shapes, the audit batch).
 */
const preparedTexts = new Set<string>();

/** Whether a statement's text is to be prepared once per connection. */
export const isPrepared = (text: string): boolean => preparedTexts.has(text);

/** Marks a statement's text to be prepared, and gives it back. */
export function preparedText(text: string): string {
  preparedTexts.add(text);
  return text;
}

/** Marks a compiled query's text to be prepared, and gives the query back. */
export function prepared<Row>(query: CompiledQuery<Row>): CompiledQuery<Row> {
  preparedText(query.sql);
  return query;
}

/**
 * A query built and compiled once, given each call's values as a CompiledQuery. `build` gets
 * stand-ins for the arguments: each is to be used as a value of the query, not looked into,
 * and every one must be used (a stand-in left out would be a value silently dropped).
 */
export function compileWithSlots<Args extends readonly unknown[], Row>(
  arity: Args["length"],
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => CompiledQuery<Row> {
  const slots = Array.from({ length: arity }, (_, i): Slot => ({ [SLOT]: i }));
  const query = build(...(slots as unknown as Args)).compile();
  const used = new Set(query.parameters.filter(isSlot).map((p) => p[SLOT]));
  if (used.size !== arity)
    throw new Error(
      `A precompiled query uses ${used.size} of its ${arity} values`,
    );
  prepared(query);
  return (...args) => ({
    ...query,
    parameters: query.parameters.map((p) => (isSlot(p) ? args[p[SLOT]] : p)),
  });
}

/**
 * A query compiled once (compileWithSlots), run on Kysely with each call's values. Building and
 * compiling a Kysely query costs more CPU than SQLite's read itself (about 30 µs against 20 for
 * the session-and-user read), and the signed-in check runs one per request.
 */
export function precompiled<DB, Args extends readonly unknown[], Row>(
  db: Kysely<DB>,
  arity: Args["length"],
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => Promise<Row[]> {
  const compiled = compileWithSlots(arity, build);
  return async (...args) => (await db.executeQuery(compiled(...args))).rows;
}
