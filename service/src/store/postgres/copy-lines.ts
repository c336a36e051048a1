import type { VehicleFacts } from "../../domain/vehicle-facts.ts";

/** The seeding's one COPY, fed by `vehicleLines` below (COPY's text format). */
export const COPY_VEHICLES_SQL =
  "COPY vehicles (registration, make, model, year, color, first_registered, tax_due, sorn, updated_at, policies, mot_tests, fines) FROM STDIN WITH (FREEZE)";

/** Lines go out in chunks of about this many characters: few writes, little held at once. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A value in COPY's text format: a backslash, tab, newline or carriage return is escaped.
 * The catalogue has none, but no value must ever be able to shift a column.
 */
export function copyText(value: string | null): string {
  if (value === null) return "\\N";
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (char) => COPY_ESCAPES[char] ?? char)
    : value;
}
const COPY_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
};

/** Double-quoted, with `"` and `\` escaped: how both literals below quote a value. */
const quoted = (value: string) => `"${value.replace(/["\\]/g, "\\$&")}"`;

/**
 * An array of composite values as PostgreSQL reads it: `{"(a,b)","(c,d)"}`. A field is
 * quoted when it is empty or holds what the row syntax reads (the policy type "Third Party,
 * Fire and Theft" has commas and spaces); every element is quoted, since each has commas.
 */
export function compositeArray(
  rows: readonly (readonly (string | null)[])[],
): string {
  // Nothing at all between the commas is NULL; "" is the empty string.
  const field = (value: string | null) =>
    value === null
      ? ""
      : value === "" || /[(),"\\\s]/.test(value)
        ? quoted(value)
        : value;
  return `{${rows.map((fields) => quoted(`(${fields.map(field).join(",")})`)).join(",")}}`;
}

/** The order the store answers in; a stable sort keeps the seed's order for a tie. */
const byKey = <T>(items: readonly T[], key: (item: T) => string): T[] =>
  items.toSorted((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** One vehicle's COPY line, its history as arrays in date order. */
export function vehicleLine(seed: VehicleFacts): string {
  const { make, model, year, color } = seed.vehicle;
  const policies = byKey(seed.policies, (p) => p.validFrom).map((p) => [
    p.number,
    p.insurer,
    p.type,
    p.validFrom,
    p.validTo,
  ]);
  const motTests = byKey(seed.motTests, (mot) => mot.testedOn).map((mot) => [
    mot.testedOn,
    mot.expiresOn,
  ]);
  const fines = byKey(seed.fines, (fine) => fine.issuedOn).map((fine) => [
    fine.issuedOn,
    String(fine.amountPence),
    fine.paid ? "t" : "f",
    null, // the source's reference: seeded fines have none
  ]);
  return `${[
    seed.registration,
    make,
    model,
    String(year),
    color,
    seed.firstRegistered,
    seed.tax.dueDate,
    seed.tax.sorn ? "t" : "f",
    seed.lastUpdated,
    compositeArray(policies),
    compositeArray(motTests),
    compositeArray(fines),
  ]
    .map(copyText)
    .join("\t")}\n`;
}

/**
 * The fleet's COPY lines in chunks, made as COPY asks for them, so the generator (most of the
 * seeding's time) and PostgreSQL work side by side. A chunk is handed over as a Buffer: V8
 * keeps a string built by `+=` as a rope of all its pieces until it is flattened.
 */
export function* vehicleLines(
  fleet: Iterable<VehicleFacts>,
): Generator<Buffer> {
  let chunk = "";
  for (const seed of fleet) {
    chunk += vehicleLine(seed);
    if (chunk.length >= CHUNK_CHARS) {
      yield Buffer.from(chunk);
      chunk = "";
    }
  }
  if (chunk !== "") yield Buffer.from(chunk);
}
