// An import's tax and MOT rows against a live register's facts, on SQLite (RegisterFact in
// ../import-store.ts): after the plan, the rows and removals that would overrule a fact the
// register gave after the file's --as-of are kept out (counted unchanged, named in temp.kept);
// after the write, the vehicles the file did change no longer name the register.
import type { DatabaseSync } from "node:sqlite";
import type { RegisterFact } from "../import-store.ts";
import { instant } from "../fetched-facts.ts";

/** The register fetched `registration`'s fact after the file's data was current (a `?`). */
const newer = (register: RegisterFact, registration: string) =>
  `EXISTS (SELECT 1 FROM fetched_facts f WHERE f.registration = ${registration}
    AND f.kind = '${register.kind}' AND f.fetched_at > ?)`;

export function keepRegisterNewer(
  db: DatabaseSync,
  register: RegisterFact,
  label: string,
  dataAsOf: string,
): void {
  const asOf = instant(dataAsOf);
  // Without a register on (the usual case) no fact is newer, and the rows are not read again.
  const any = db
    .prepare(
      "SELECT 1 AS n FROM fetched_facts WHERE kind = ? AND fetched_at > ? LIMIT 1",
    )
    .get(register.kind, asOf);
  if (!any) return;
  // CASE: the row's disagreement is worked out only for a vehicle the register has newer.
  db.prepare(
    `UPDATE temp.plan AS s SET change = 'kept' WHERE change <> 'unchanged'
       AND CASE WHEN ${newer(register, "s.registration")}
         THEN (${register.disagrees}) ELSE 0 END`,
  ).run(asOf);
  db.exec(`INSERT INTO temp.kept
    SELECT ${label} FROM temp.plan s WHERE change = 'kept' ORDER BY line;
    UPDATE temp.plan SET change = 'unchanged' WHERE change = 'kept';`);
  const keptOut = `SELECT r.vehicle_id, r.record_id, r.label FROM temp.removed r
    JOIN vehicles v ON v.id = r.vehicle_id WHERE ${newer(register, "v.registration")}`;
  db.prepare(`INSERT INTO temp.kept SELECT label FROM (${keptOut})`).run(asOf);
  db.prepare(
    `DELETE FROM temp.removed WHERE (vehicle_id, record_id) IN
      (SELECT vehicle_id, record_id FROM (${keptOut}))`,
  ).run(asOf);
}

/** After the write: the touched vehicles' facts of the kind are the file's, as of dataAsOf. */
export function clearRegisterMarks(
  db: DatabaseSync,
  register: RegisterFact,
  dataAsOf: string,
): void {
  db.prepare(
    `DELETE FROM fetched_facts WHERE kind = ? AND fetched_at <= ? AND registration IN
      (SELECT v.registration FROM vehicles v JOIN temp.touched t ON t.vehicle_id = v.id)`,
  ).run(register.kind, instant(dataAsOf));
}
