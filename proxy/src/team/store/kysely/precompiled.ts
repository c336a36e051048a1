import type { Compilable, CompiledQuery, Kysely } from "kysely";

const SLOT = Symbol("precompiled slot");
interface Slot {
  readonly [SLOT]: number;
}
const isSlot = (value: unknown): value is Slot =>
  typeof value === "object" && value !== null && SLOT in value;

/** The text of every query compiled once: PostgreSQL prepares each (reaching-postgres-dialect.ts). */
const compiledTexts = new Set<string>();

/** Whether a statement's text is one compiled once, of a fixed shape, run again and again. */
export const isPrecompiled = (text: string): boolean => compiledTexts.has(text);

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
  compiledTexts.add(query.sql);
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
