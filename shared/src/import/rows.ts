// The rows an operator imports (docs/import.md): one kind of record per file, its columns
// named in the header in any order. Each row is checked here, so the import and anything
// else that reads these files agree on what a good row is and say why a row is refused.
import { z } from "zod";
import { parseRegistration } from "../registration.ts";
import { type DateFormat, readDate } from "./dates.ts";

export const IMPORT_KINDS = [
  "vehicles",
  "policies",
  "mot",
  "tax",
  "fines",
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const TAX_STATUSES = ["taxed", "untaxed", "sorn"] as const;

/** Each kind's columns, required first; the header names them (case and spaces aside). */
export const IMPORT_COLUMNS = {
  vehicles: {
    required: [
      "registration",
      "make",
      "model",
      "year",
      "colour",
      "first_registered",
    ],
    optional: [],
  },
  policies: {
    required: [
      "registration",
      "policy_number",
      "insurer",
      "cover_type",
      "valid_from",
      "valid_to",
    ],
    optional: [],
  },
  mot: {
    required: ["registration", "test_date", "expiry_date"],
    optional: [],
  },
  tax: { required: ["registration", "status"], optional: ["due_date"] },
  fines: {
    required: ["registration", "reference", "issued_on", "amount", "paid"],
    optional: [],
  },
} as const satisfies Record<
  ImportKind,
  { required: readonly string[]; optional: readonly string[] }
>;

/** A header cell as a column name: "Policy Number", "policy-number" and "POLICY_NUMBER" agree. */
export function columnName(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

const LONGEST_CELL = 200;

const text = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(
      LONGEST_CELL,
      `The ${what} is longer than ${LONGEST_CELL} characters.`,
    );

const registration = z.string().transform((cell, ctx) => {
  const parsed = parseRegistration(cell);
  if (parsed.ok) return parsed.registration;
  ctx.addIssue({ code: "custom", message: `${parsed.message}.` });
  return z.NEVER;
});

const date = (format: DateFormat) =>
  z.string().transform((cell, ctx) => {
    const reading = readDate(cell, format);
    if (reading.ok) return reading.date;
    ctx.addIssue({
      code: "custom",
      message: cell.trim() === "" ? "Enter the date." : reading.reason,
    });
    return z.NEVER;
  });

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0"]);

const yesNo = z.string().transform((cell, ctx) => {
  const word = cell.trim().toLowerCase();
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  ctx.addIssue({ code: "custom", message: "Write yes or no." });
  return z.NEVER;
});

/** Pounds, as a source writes them ("60", "60.00", "£1,200.50"), to whole pence. */
const pounds = z.string().transform((cell, ctx) => {
  const match = /^£?(\d{1,3}(,\d{3})*|\d+)(\.(\d{1,2}))?$/.exec(cell.trim());
  if (!match) {
    ctx.addIssue({
      code: "custom",
      message: "Write the amount in pounds, like 60 or 60.00.",
    });
    return z.NEVER;
  }
  const whole = Number((match[1] ?? "").replaceAll(",", ""));
  const pence = Number((match[4] ?? "0").padEnd(2, "0"));
  const total = whole * 100 + pence;
  if (!Number.isSafeInteger(total) || total > 100_000_000) {
    ctx.addIssue({
      code: "custom",
      message: "The amount is more than £1,000,000.",
    });
    return z.NEVER;
  }
  return total;
});

const year = z.string().transform((cell, ctx) => {
  const value = cell.trim();
  if (/^\d{4}$/.test(value) && Number(value) >= 1885) return Number(value);
  ctx.addIssue({
    code: "custom",
    message: "Write the year of manufacture as four digits, like 2019.",
  });
  return z.NEVER;
});

function notBefore<T>(
  later: keyof T & string,
  earlier: keyof T & string,
  message: string,
) {
  return (row: T, ctx: z.RefinementCtx) => {
    if (String(row[later]) < String(row[earlier]))
      ctx.addIssue({ code: "custom", path: [later], message });
  };
}

/** The schemas for a file whose dates are in `format`; the input is the row by column name. */
export function importRowSchemas(format: DateFormat) {
  return {
    vehicles: z
      .object({
        registration,
        make: text("make"),
        model: text("model"),
        year,
        colour: text("colour"),
        first_registered: date(format),
      })
      .transform((row) => ({
        registration: row.registration,
        make: row.make,
        model: row.model,
        year: row.year,
        color: row.colour,
        firstRegistered: row.first_registered,
      })),
    policies: z
      .object({
        registration,
        policy_number: text("policy number"),
        insurer: text("insurer"),
        cover_type: text("cover type"),
        valid_from: date(format),
        valid_to: date(format),
      })
      .superRefine(
        notBefore(
          "valid_to",
          "valid_from",
          "The policy ends before it starts.",
        ),
      )
      .transform((row) => ({
        registration: row.registration,
        number: row.policy_number,
        insurer: row.insurer,
        type: row.cover_type,
        validFrom: row.valid_from,
        validTo: row.valid_to,
      })),
    mot: z
      .object({
        registration,
        test_date: date(format),
        expiry_date: date(format),
      })
      .superRefine(
        notBefore(
          "expiry_date",
          "test_date",
          "The certificate expires before the test.",
        ),
      )
      .transform((row) => ({
        registration: row.registration,
        testedOn: row.test_date,
        expiresOn: row.expiry_date,
      })),
    tax: z
      .object({
        registration,
        status: z
          .string()
          .transform((cell) => cell.trim().toLowerCase())
          .pipe(
            z.enum(TAX_STATUSES, {
              error: "Write taxed, untaxed or SORN.",
            }),
          ),
        due_date: z.string().optional(),
      })
      .transform((row, ctx) => {
        const due = (row.due_date ?? "").trim();
        if (due === "") {
          if (row.status === "taxed") {
            ctx.addIssue({
              code: "custom",
              path: ["due_date"],
              message: "A taxed vehicle needs the date its tax is due.",
            });
            return z.NEVER;
          }
          return {
            registration: row.registration,
            status: row.status,
            dueDate: null,
          };
        }
        const reading = readDate(due, format);
        if (!reading.ok) {
          ctx.addIssue({
            code: "custom",
            path: ["due_date"],
            message: reading.reason,
          });
          return z.NEVER;
        }
        return {
          registration: row.registration,
          status: row.status,
          dueDate: reading.date,
        };
      }),
    fines: z
      .object({
        registration,
        reference: text("fine's reference"),
        issued_on: date(format),
        amount: pounds,
        paid: yesNo,
      })
      .transform((row) => ({
        registration: row.registration,
        reference: row.reference,
        issuedOn: row.issued_on,
        amountPence: row.amount,
        paid: row.paid,
      })),
  };
}

type Schemas = ReturnType<typeof importRowSchemas>;
export type ImportRow<K extends ImportKind> = z.output<Schemas[K]>;
export type VehicleRow = ImportRow<"vehicles">;
export type PolicyRow = ImportRow<"policies">;
export type MotRow = ImportRow<"mot">;
export type TaxRow = ImportRow<"tax">;
export type FineRow = ImportRow<"fines">;

/** What identifies a record of each kind: a second row with the same key is a contradiction. */
export const IMPORT_KEYS: {
  [K in ImportKind]: (row: ImportRow<K>) => readonly string[];
} = {
  vehicles: (row) => [row.registration],
  policies: (row) => [row.registration, row.number],
  mot: (row) => [row.registration, row.testedOn],
  tax: (row) => [row.registration],
  fines: (row) => [row.registration, row.reference],
};

/** One refused cell: the column, its value and the reason, in words. */
export interface RowProblem {
  column: string;
  value: string;
  reason: string;
}

export type RowReading<K extends ImportKind> =
  { ok: true; row: ImportRow<K> } | { ok: false; problems: RowProblem[] };

/** A row by column name, checked: the record, or every problem in it (one per cell). */
export function readImportRow<K extends ImportKind>(
  schemas: Schemas,
  kind: K,
  cells: Readonly<Record<string, string>>,
): RowReading<K> {
  const result = schemas[kind].safeParse(cells);
  if (result.success) return { ok: true, row: result.data as ImportRow<K> };
  const seen = new Set<string>();
  const problems: RowProblem[] = [];
  for (const issue of result.error.issues) {
    const column = String(issue.path[0] ?? "");
    if (seen.has(column)) continue;
    seen.add(column);
    problems.push({
      column,
      value: cells[column] ?? "",
      reason: issue.message,
    });
  }
  return { ok: false, problems };
}
