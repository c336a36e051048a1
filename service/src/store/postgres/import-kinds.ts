// What each kind of import row is in PostgreSQL: its staging columns, its key, and how a
// staged row becomes a change. A vehicle is one row with its policies, MOT tests and fines in
// arrays (decision 037), so those three kinds are not rows to update: each touched vehicle's
// array is rebuilt once, set-based, from the elements it keeps and the file's new ones. Each
// kind's SQL reads pg_temp.staged (the file's good rows) and writes pg_temp.plan (each row's
// vehicle and change) and pg_temp.removed (a snapshot's records the file leaves out).
import type { ImportKind, ImportRow } from "@vics/shared/import/rows";
import type { RegisterFact } from "../import-store.ts";

export interface PostgresKind<K extends ImportKind> {
  /** The staged columns after `line`, with their types, in the order `cells` gives them. */
  columns: readonly (readonly [name: string, type: string])[];
  /** A row's cells as COPY's text takes them; null is NULL. */
  cells(row: ImportRow<K>): (string | null)[];
  /** The staged columns that identify a record; a second row with the same key contradicts. */
  key: readonly string[];
  /** The file's column a repeated key is reported against. */
  keyColumn: string;
  /** How a record is named in messages and examples, as SQL over pg_temp.staged `s`. */
  label: string;
  noun: string;
  /** Rejects of staged rows the store cannot take, as (line, column, value, reason). */
  orphans?: string;
  /** Fills pg_temp.plan (staged columns, vehicle_id, change). */
  plan: string;
  /** Fills pg_temp.removed (vehicle_id, key, label). */
  removed: string;
  /** The earliest day the planned rows cover, as SQL over pg_temp.plan (`d`). */
  earliest?: string;
  /** How many records of the kind there are. */
  total: string;
  /**
   * Writes the plan and the removals, statement by statement; $1 is the import's instant, which
   * every vehicle row it writes takes as its updated_at (one write of each row, not two).
   */
  write: readonly string[];
  /** The register's kind of fact these rows are, when a live register gives it (issue 35). */
  register?: RegisterFact;
}

// New vehicles go in in their registration index's order, not the file's: the index then grows
// at its end instead of being written all over.
const vehicleOnRecord = `SELECT s.line, 'registration', s.registration,
    'No vehicle ' || s.registration || ' is on record: import it in a vehicles file first.'
  FROM pg_temp.staged s
  WHERE NOT EXISTS (SELECT 1 FROM vehicles v WHERE v.registration = s.registration)`;

const vehicles: PostgresKind<"vehicles"> = {
  columns: [
    ["registration", "text"],
    ["make", "text"],
    ["model", "text"],
    ["year", "smallint"],
    ["color", "text"],
    ["first_registered", "date"],
  ],
  cells: (row) => [
    row.registration,
    row.make,
    row.model,
    String(row.year),
    row.color,
    row.firstRegistered,
  ],
  key: ["registration"],
  keyColumn: "registration",
  label: "s.registration",
  noun: "vehicle",
  plan: `INSERT INTO pg_temp.plan
    SELECT s.*, v.id,
      CASE WHEN v.id IS NULL THEN 'added'
        WHEN (v.make, v.model, v.year, v.color, v.first_registered)
          = (s.make, s.model, s.year, s.color, s.first_registered) THEN 'unchanged'
        ELSE 'changed' END
    FROM pg_temp.staged s LEFT JOIN vehicles v ON v.registration = s.registration`,
  removed: `INSERT INTO pg_temp.removed
    SELECT v.id, v.registration, v.registration FROM vehicles v
    WHERE NOT EXISTS (SELECT 1 FROM pg_temp.staged s WHERE s.registration = v.registration)`,
  total: "SELECT count(*)::bigint AS n FROM vehicles",
  write: [
    `UPDATE vehicles v SET make = p.make, model = p.model, year = p.year, color = p.color,
       first_registered = p.first_registered, updated_at = $1
     FROM pg_temp.plan p WHERE p.vehicle_id = v.id AND p.change = 'changed'`,
    // A removed vehicle's fetched marks go with it: added again, its facts are the file's.
    "DELETE FROM fetched_facts WHERE registration IN (SELECT key FROM pg_temp.removed)",
    "DELETE FROM vehicles WHERE id IN (SELECT vehicle_id FROM pg_temp.removed)",
    `INSERT INTO vehicles (registration, make, model, year, color, first_registered, updated_at)
     SELECT registration, make, model, year, color, first_registered, $1 FROM pg_temp.plan
     WHERE change = 'added' ORDER BY registration`,
  ],
};

/**
 * A kind kept in an array on the vehicle's row: `array` of `type`, an element identified by
 * `key`, compared on `fields`, and kept in `order`.
 */
function arrayKind<K extends ImportKind>(spec: {
  columns: PostgresKind<K>["columns"];
  cells: PostgresKind<K>["cells"];
  array: string;
  type: string;
  key: string;
  keyColumn: string;
  noun: string;
  fields: readonly string[];
  /** The element's attributes, in the type's order, as staged columns (or NULL). */
  element: readonly string[];
  order: string;
  earliest?: string;
}): PostgresKind<K> {
  const { array, key, fields } = spec;
  const same = `(${fields.map((f) => `e.${f}`).join(", ")}) IS NOT DISTINCT FROM (${fields.map((f) => `s.${f}`).join(", ")})`;
  const element = `ROW(${spec.element.map((f) => (f === "NULL" ? "NULL" : `n.${f}`)).join(", ")})::${spec.type}`;
  return {
    columns: spec.columns,
    cells: spec.cells,
    key: ["registration", key],
    keyColumn: spec.keyColumn,
    label: `s.registration || ' ' || s.${key}`,
    noun: spec.noun,
    orphans: vehicleOnRecord,
    plan: `INSERT INTO pg_temp.plan
      SELECT s.*, v.id,
        CASE WHEN e.${key} IS NULL THEN 'added' WHEN ${same} THEN 'unchanged'
          ELSE 'changed' END
      FROM pg_temp.staged s JOIN vehicles v ON v.registration = s.registration
      LEFT JOIN LATERAL (SELECT * FROM unnest(v.${array}) x WHERE x.${key} = s.${key} LIMIT 1) e
        ON true`,
    removed: `INSERT INTO pg_temp.removed
      SELECT v.id, e.${key}::text,
        v.registration || ' ' || coalesce(e.${key}::text, e.${fields[0]}::text)
      FROM vehicles v, unnest(v.${array}) e
      WHERE cardinality(v.${array}) > 0 AND NOT EXISTS (SELECT 1 FROM pg_temp.staged s
        WHERE s.registration = v.registration AND s.${key} = e.${key})`,
    earliest: spec.earliest,
    total: `SELECT coalesce(sum(cardinality(${array})), 0)::bigint AS n FROM vehicles`,
    // Each touched vehicle's array, rebuilt: the elements it keeps (not changed, not
    // removed), then the file's added and changed ones, in the kind's order.
    write: [
      `WITH kept AS (
      SELECT t.vehicle_id, e AS x FROM pg_temp.touched t
      JOIN vehicles v ON v.id = t.vehicle_id, unnest(v.${array}) e
      WHERE NOT EXISTS (SELECT 1 FROM pg_temp.plan n WHERE n.vehicle_id = t.vehicle_id
          AND n.change = 'changed' AND n.${key} = e.${key})
        AND NOT EXISTS (SELECT 1 FROM pg_temp.removed r WHERE r.vehicle_id = t.vehicle_id
          AND r.key IS NOT DISTINCT FROM e.${key}::text)
      UNION ALL
      SELECT n.vehicle_id, ${element} FROM pg_temp.plan n WHERE n.change <> 'unchanged'
    ), rebuilt AS (
      SELECT vehicle_id, array_agg(x ORDER BY ${spec.order.replaceAll("$.", "(x).")}) AS a
      FROM kept GROUP BY vehicle_id
    )
    UPDATE vehicles v SET ${array} = coalesce(r.a, '{}'), updated_at = $1
    FROM pg_temp.touched t LEFT JOIN rebuilt r ON r.vehicle_id = t.vehicle_id
    WHERE v.id = t.vehicle_id`,
    ],
  };
}

const policies = arrayKind<"policies">({
  columns: [
    ["registration", "text"],
    ["number", "text"],
    ["insurer", "text"],
    ["type", "text"],
    ["valid_from", "date"],
    ["valid_to", "date"],
  ],
  cells: (row) => [
    row.registration,
    row.number,
    row.insurer,
    row.type,
    row.validFrom,
    row.validTo,
  ],
  array: "policies",
  type: "vehicle_policy",
  key: "number",
  keyColumn: "policy_number",
  noun: "policy",
  fields: ["insurer", "type", "valid_from", "valid_to"],
  element: ["number", "insurer", "type", "valid_from", "valid_to"],
  order: "$.valid_from, $.number",
  earliest: "SELECT min(valid_from)::text AS d FROM pg_temp.plan",
});

const motRows = arrayKind<"mot">({
  columns: [
    ["registration", "text"],
    ["tested_on", "date"],
    ["expires_on", "date"],
  ],
  cells: (row) => [row.registration, row.testedOn, row.expiresOn],
  array: "mot_tests",
  type: "mot_test",
  key: "tested_on",
  keyColumn: "test_date",
  noun: "MOT test",
  fields: ["expires_on"],
  element: ["tested_on", "expires_on"],
  order: "$.tested_on",
  earliest: "SELECT min(tested_on)::text AS d FROM pg_temp.plan",
});

const mot: PostgresKind<"mot"> = {
  ...motRows,
  register: {
    kind: "mot",
    // Another expiry for a test the vehicle has, or a test after all of them (the vehicle's
    // current certificate); an earlier new test only fills in the history.
    disagrees: `s.change = 'changed' OR NOT EXISTS (SELECT 1 FROM vehicles v,
      unnest(v.mot_tests) m WHERE v.id = s.vehicle_id AND m.tested_on > s.tested_on)`,
  },
};

const fines = arrayKind<"fines">({
  columns: [
    ["registration", "text"],
    ["reference", "text"],
    ["issued_on", "date"],
    ["amount_pence", "integer"],
    ["paid", "boolean"],
  ],
  cells: (row) => [
    row.registration,
    row.reference,
    row.issuedOn,
    String(row.amountPence),
    row.paid ? "t" : "f",
  ],
  array: "fines",
  type: "fine",
  key: "reference",
  keyColumn: "reference",
  noun: "fine",
  fields: ["issued_on", "amount_pence", "paid"],
  element: ["issued_on", "amount_pence", "paid", "reference"],
  order: "$.issued_on, $.reference NULLS FIRST",
});

/**
 * Road tax is one state on the vehicle's row (tax_due, sorn): a vehicle with neither has no
 * tax record, so a row for it is "added", and a snapshot that leaves it out removes it.
 */
const tax: PostgresKind<"tax"> = {
  columns: [
    ["registration", "text"],
    ["sorn", "boolean"],
    ["tax_due", "date"],
  ],
  cells: (row) => [
    row.registration,
    row.status === "sorn" ? "t" : "f",
    row.dueDate,
  ],
  key: ["registration"],
  keyColumn: "registration",
  label: "s.registration",
  noun: "road tax",
  orphans: vehicleOnRecord,
  plan: `INSERT INTO pg_temp.plan
    SELECT s.*, v.id,
      CASE WHEN v.tax_due IS NULL AND NOT v.sorn THEN 'added'
        WHEN v.sorn = s.sorn AND v.tax_due IS NOT DISTINCT FROM s.tax_due THEN 'unchanged'
        ELSE 'changed' END
    FROM pg_temp.staged s JOIN vehicles v ON v.registration = s.registration`,
  removed: `INSERT INTO pg_temp.removed
    SELECT v.id, v.registration, v.registration FROM vehicles v
    WHERE (v.tax_due IS NOT NULL OR v.sorn)
      AND NOT EXISTS (SELECT 1 FROM pg_temp.staged s WHERE s.registration = v.registration)`,
  total:
    "SELECT count(*)::bigint AS n FROM vehicles WHERE tax_due IS NOT NULL OR sorn",
  write: [
    `UPDATE vehicles v SET sorn = p.sorn, tax_due = p.tax_due, updated_at = $1
     FROM pg_temp.plan p WHERE p.vehicle_id = v.id AND p.change <> 'unchanged'`,
    `UPDATE vehicles SET sorn = false, tax_due = NULL, updated_at = $1
     WHERE id IN (SELECT vehicle_id FROM pg_temp.removed)`,
  ],
  register: { kind: "tax", disagrees: "true" },
};

export const POSTGRES_KINDS: { [K in ImportKind]: PostgresKind<K> } = {
  vehicles,
  policies,
  mot,
  tax,
  fines,
};
