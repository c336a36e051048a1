// What each kind of import row is in SQLite: its staging table, its key, how a staged row
// compares with the record it would change, and how the changes are written. Each kind's
// SQL reads temp.staged (the file's good rows) and writes temp.plan (each row's change) and
// temp.removed (a snapshot's records that the file leaves out).
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { ImportKind, ImportRow } from "@vics/shared/import/rows";
import type { RegisterFact } from "../import-store.ts";

export interface SqliteKind<K extends ImportKind> {
  /** The staged columns after `line`, in the order `cells` gives them. */
  columns: readonly string[];
  cells(row: ImportRow<K>): SQLInputValue[];
  /** The staged columns that identify a record; a second row with the same key contradicts. */
  key: readonly string[];
  /** The file's column a repeated key is reported against (its last key column). */
  keyColumn: string;
  /** How a record is named in messages and examples, as SQL over temp.staged `s`. */
  label: string;
  /** "vehicle", "policy": for messages. */
  noun: string;
  /**
   * Rejects of staged rows the store cannot take (a policy for a vehicle not on record), as
   * (line, column, value, reason) rows; they are deleted from temp.staged.
   */
  orphans?: string;
  /** Fills temp.plan (staged columns, vehicle_id, record_id, change). */
  plan: string;
  /** Fills temp.removed (vehicle_id, record_id, label): records not in the file. */
  removed: string;
  /** The earliest day the planned rows cover, as SQL over temp.plan (`d`), for history_from. */
  earliest?: string;
  /** How many records of the kind there are, for the snapshot's share removed. */
  total: string;
  /** Writes the plan and the removals; the vehicles they touch already have history. */
  write(db: DatabaseSync, now: string): void;
  /** The register's kind of fact these rows are, when a live register gives it (issue 35). */
  register?: RegisterFact;
}

// New records go in in their indexes' order (a vehicle by its registration, the rest by their
// vehicle), not the file's: each index then grows at its end instead of being written all
// over, a third of a 1,000,000-row import's time (docs/performance.md).

/** A row of a kind that belongs to a vehicle is refused when the vehicle is not on record. */
const vehicleOnRecord = `SELECT s.line, 'registration', s.registration,
      'No vehicle ' || s.registration || ' is on record: import it in a vehicles file first.'
    FROM temp.staged s WHERE NOT EXISTS
      (SELECT 1 FROM vehicles v WHERE v.registration = s.registration)`;

const vehicles: SqliteKind<"vehicles"> = {
  columns: [
    "registration",
    "make",
    "model",
    "year",
    "color",
    "first_registered",
  ],
  cells: (row) => [
    row.registration,
    row.make,
    row.model,
    row.year,
    row.color,
    row.firstRegistered,
  ],
  key: ["registration"],
  keyColumn: "registration",
  label: "s.registration",
  noun: "vehicle",
  plan: `INSERT INTO temp.plan
    SELECT s.*, v.id, v.id,
      CASE WHEN v.id IS NULL THEN 'added'
        WHEN v.make = s.make AND v.model = s.model AND v.year = s.year
          AND v.color = s.color AND v.first_registered = s.first_registered THEN 'unchanged'
        ELSE 'changed' END
    FROM temp.staged s LEFT JOIN vehicles v ON v.registration = s.registration`,
  removed: `INSERT INTO temp.removed
    SELECT v.id, v.id, v.registration FROM vehicles v
    WHERE v.registration NOT IN (SELECT registration FROM temp.staged)`,
  total: "SELECT count(*) AS n FROM vehicles",
  write(db, now) {
    db.prepare(
      `UPDATE vehicles SET (make, model, year, color, first_registered, updated_at) =
        (SELECT make, model, year, color, first_registered, ? FROM temp.plan p
         WHERE p.record_id = vehicles.id)
       WHERE id IN (SELECT record_id FROM temp.plan WHERE change = 'changed')`,
    ).run(now);
    // A removed vehicle's fetched marks go with it: added again, its facts are the file's.
    db.exec(
      `DELETE FROM fetched_facts WHERE registration IN (SELECT label FROM temp.removed);
       DELETE FROM vehicles WHERE id IN (SELECT record_id FROM temp.removed);`,
    );
    db.prepare(
      `INSERT INTO vehicles (registration, make, model, year, color, first_registered, updated_at)
       SELECT registration, make, model, year, color, first_registered, ? FROM temp.plan
       WHERE change = 'added' ORDER BY registration`,
    ).run(now);
  },
};

const policies: SqliteKind<"policies"> = {
  columns: [
    "registration",
    "number",
    "insurer",
    "type",
    "valid_from",
    "valid_to",
  ],
  cells: (row) => [
    row.registration,
    row.number,
    row.insurer,
    row.type,
    row.validFrom,
    row.validTo,
  ],
  key: ["registration", "number"],
  keyColumn: "policy_number",
  label: "s.registration || ' ' || s.number",
  noun: "policy",
  orphans: vehicleOnRecord,
  plan: `INSERT INTO temp.plan
    SELECT s.*, v.id, p.id,
      CASE WHEN p.id IS NULL THEN 'added'
        WHEN p.insurer = s.insurer AND p.type = s.type AND p.valid_from = s.valid_from
          AND p.valid_to = s.valid_to THEN 'unchanged'
        ELSE 'changed' END
    FROM temp.staged s JOIN vehicles v ON v.registration = s.registration
    LEFT JOIN policies p ON p.vehicle_id = v.id AND p.number = s.number`,
  removed: `INSERT INTO temp.removed
    SELECT p.vehicle_id, p.id, v.registration || ' ' || p.number
    FROM policies p JOIN vehicles v ON v.id = p.vehicle_id
    WHERE NOT EXISTS (SELECT 1 FROM temp.staged s
      WHERE s.registration = v.registration AND s.number = p.number)`,
  earliest: "SELECT min(valid_from) AS d FROM temp.plan",
  total: "SELECT count(*) AS n FROM policies",
  write(db) {
    db.exec(
      `UPDATE policies SET (insurer, type, valid_from, valid_to) =
        (SELECT insurer, type, valid_from, valid_to FROM temp.plan p
         WHERE p.record_id = policies.id)
       WHERE id IN (SELECT record_id FROM temp.plan WHERE change = 'changed');
       DELETE FROM policies WHERE id IN (SELECT record_id FROM temp.removed);
       INSERT INTO policies (vehicle_id, number, insurer, type, valid_from, valid_to)
       SELECT vehicle_id, number, insurer, type, valid_from, valid_to FROM temp.plan
       WHERE change = 'added' ORDER BY vehicle_id;`,
    );
  },
};

const mot: SqliteKind<"mot"> = {
  columns: ["registration", "tested_on", "expires_on"],
  cells: (row) => [row.registration, row.testedOn, row.expiresOn],
  key: ["registration", "tested_on"],
  keyColumn: "test_date",
  label: "s.registration || ' ' || s.tested_on",
  noun: "MOT test",
  orphans: vehicleOnRecord,
  plan: `INSERT INTO temp.plan
    SELECT s.*, v.id, m.id,
      CASE WHEN m.id IS NULL THEN 'added'
        WHEN m.expires_on = s.expires_on THEN 'unchanged'
        ELSE 'changed' END
    FROM temp.staged s JOIN vehicles v ON v.registration = s.registration
    LEFT JOIN mot_tests m ON m.vehicle_id = v.id AND m.tested_on = s.tested_on`,
  removed: `INSERT INTO temp.removed
    SELECT m.vehicle_id, m.id, v.registration || ' ' || m.tested_on
    FROM mot_tests m JOIN vehicles v ON v.id = m.vehicle_id
    WHERE NOT EXISTS (SELECT 1 FROM temp.staged s
      WHERE s.registration = v.registration AND s.tested_on = m.tested_on)`,
  earliest: "SELECT min(tested_on) AS d FROM temp.plan",
  total: "SELECT count(*) AS n FROM mot_tests",
  write(db) {
    db.exec(
      `UPDATE mot_tests SET expires_on =
        (SELECT expires_on FROM temp.plan p WHERE p.record_id = mot_tests.id)
       WHERE id IN (SELECT record_id FROM temp.plan WHERE change = 'changed');
       DELETE FROM mot_tests WHERE id IN (SELECT record_id FROM temp.removed);
       INSERT INTO mot_tests (vehicle_id, tested_on, expires_on)
       SELECT vehicle_id, tested_on, expires_on FROM temp.plan
       WHERE change = 'added' ORDER BY vehicle_id;`,
    );
  },
  register: {
    kind: "mot",
    // Another expiry for a test the vehicle has, or a test after all of them (the vehicle's
    // current certificate); an earlier new test only fills in the history.
    disagrees: `s.change = 'changed' OR NOT EXISTS (SELECT 1 FROM mot_tests m
      WHERE m.vehicle_id = s.vehicle_id AND m.tested_on > s.tested_on)`,
  },
};

/**
 * A vehicle's road tax is one state on its row (tax_due, sorn): a vehicle with neither has
 * no tax record, so a row for it is "added", and a snapshot that leaves it out removes its
 * record (untaxed, no due date).
 */
const tax: SqliteKind<"tax"> = {
  columns: ["registration", "sorn", "tax_due"],
  cells: (row) => [
    row.registration,
    row.status === "sorn" ? 1 : 0,
    row.dueDate,
  ],
  key: ["registration"],
  keyColumn: "registration",
  label: "s.registration",
  noun: "road tax",
  orphans: vehicleOnRecord,
  plan: `INSERT INTO temp.plan
    SELECT s.*, v.id, v.id,
      CASE WHEN v.tax_due IS NULL AND v.sorn = 0 THEN 'added'
        WHEN v.sorn = s.sorn AND v.tax_due IS s.tax_due THEN 'unchanged'
        ELSE 'changed' END
    FROM temp.staged s JOIN vehicles v ON v.registration = s.registration`,
  removed: `INSERT INTO temp.removed
    SELECT v.id, v.id, v.registration FROM vehicles v
    WHERE (v.tax_due IS NOT NULL OR v.sorn = 1)
      AND v.registration NOT IN (SELECT registration FROM temp.staged)`,
  total:
    "SELECT count(*) AS n FROM vehicles WHERE tax_due IS NOT NULL OR sorn = 1",
  write(db) {
    db.exec(
      `UPDATE vehicles SET (sorn, tax_due) =
        (SELECT sorn, tax_due FROM temp.plan p WHERE p.record_id = vehicles.id)
       WHERE id IN (SELECT record_id FROM temp.plan WHERE change <> 'unchanged');
       UPDATE vehicles SET sorn = 0, tax_due = NULL
       WHERE id IN (SELECT record_id FROM temp.removed);`,
    );
  },
  register: { kind: "tax", disagrees: "true" },
};

const fines: SqliteKind<"fines"> = {
  columns: ["registration", "reference", "issued_on", "amount_pence", "paid"],
  cells: (row) => [
    row.registration,
    row.reference,
    row.issuedOn,
    row.amountPence,
    row.paid ? 1 : 0,
  ],
  key: ["registration", "reference"],
  keyColumn: "reference",
  label: "s.registration || ' ' || s.reference",
  noun: "fine",
  orphans: vehicleOnRecord,
  plan: `INSERT INTO temp.plan
    SELECT s.*, v.id, f.id,
      CASE WHEN f.id IS NULL THEN 'added'
        WHEN f.issued_on = s.issued_on AND f.amount_pence = s.amount_pence
          AND f.paid = s.paid THEN 'unchanged'
        ELSE 'changed' END
    FROM temp.staged s JOIN vehicles v ON v.registration = s.registration
    LEFT JOIN fines f ON f.vehicle_id = v.id AND f.reference = s.reference`,
  removed: `INSERT INTO temp.removed
    SELECT f.vehicle_id, f.id, v.registration || ' ' || coalesce(f.reference, f.issued_on)
    FROM fines f JOIN vehicles v ON v.id = f.vehicle_id
    WHERE NOT EXISTS (SELECT 1 FROM temp.staged s
      WHERE s.registration = v.registration AND s.reference = f.reference)`,
  total: "SELECT count(*) AS n FROM fines",
  write(db) {
    db.exec(
      `UPDATE fines SET (issued_on, amount_pence, paid) =
        (SELECT issued_on, amount_pence, paid FROM temp.plan p
         WHERE p.record_id = fines.id)
       WHERE id IN (SELECT record_id FROM temp.plan WHERE change = 'changed');
       DELETE FROM fines WHERE id IN (SELECT record_id FROM temp.removed);
       INSERT INTO fines (vehicle_id, reference, issued_on, amount_pence, paid)
       SELECT vehicle_id, reference, issued_on, amount_pence, paid FROM temp.plan
       WHERE change = 'added' ORDER BY vehicle_id;`,
    );
  },
};

export const SQLITE_KINDS: { [K in ImportKind]: SqliteKind<K> } = {
  vehicles,
  policies,
  mot,
  tax,
  fines,
};
