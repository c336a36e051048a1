// The fleet list the bench uploads: a CSV as a fleet manager exports it (fleet number,
// registration, make, depot), with plates written the ways people write them, some repeated,
// a few not registrations at all. Deterministic, so every run uploads the same file.
import { formatRegistration } from "@vics/shared";

export interface FleetFile {
  csv: string;
  /** The column holding the registrations (0-based), as the app should detect it. */
  registrationColumn: number;
  /** What the app's review must say of it. */
  expected: {
    rows: number;
    unique: number;
    duplicates: number;
    invalid: number;
  };
  /** Unique plates made up because the database held too few: they answer "not found". */
  madeUp: number;
}

const HEADER = ["Fleet number", "Registration", "Make", "Depot"];
const MAKES = ["Ford", "Vauxhall", "Mercedes-Benz", "Volkswagen", "Toyota"];
const DEPOTS = ["Leeds", "Hull", "York", "Wakefield", "Bradford", "Sheffield"];
/** Not registrations: blank, placeholders, a typo'd plate, a fleet number in the wrong column. */
const NOT_PLATES = ["", "TBC", "N/A", "AB12 CD!", "SOLD", "12345678"];

/** A small seeded generator (mulberry32): the same list on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` valid current-format plates ("ZZ00AAA" on) that are not among `taken`. */
export function madeUpPlates(
  count: number,
  taken: ReadonlySet<string>,
): string[] {
  const letters = "ABCDEFGHJKLMNPRSTUVWXY";
  const plates: string[] = [];
  for (let n = 0; plates.length < count; n++) {
    const digits = String(n % 100).padStart(2, "0");
    let rest = Math.floor(n / 100);
    let suffix = "";
    for (let i = 0; i < 3; i++) {
      suffix += letters[rest % letters.length];
      rest = Math.floor(rest / letters.length);
    }
    if (rest > 0) throw new Error(`Cannot make up ${count} plates`);
    const plate = `ZZ${digits}${suffix}`;
    if (!taken.has(plate)) plates.push(plate);
  }
  return plates;
}

/** A plate as a person types it: mostly DVLA spacing, some run together, some lower case. */
function written(plate: string, random: () => number): string {
  const roll = random();
  if (roll < 0.1) return plate;
  if (roll < 0.15) return formatRegistration(plate).toLowerCase();
  return formatRegistration(plate);
}

/**
 * `rows` rows: 0.05% not registrations, 1% repeating an earlier vehicle (written differently),
 * the rest distinct vehicles from `registrations`, topped up with made-up plates if too few.
 */
export function fleetFile(
  registrations: readonly string[],
  rows: number,
  seed = 2025,
): FleetFile {
  const random = seededRandom(seed);
  const invalid = Math.round(rows * 0.0005);
  const duplicates = Math.round(rows * 0.01);
  const unique = rows - invalid - duplicates;
  const real = [...new Set(registrations)].slice(0, unique);
  const madeUp = madeUpPlates(unique - real.length, new Set(registrations));
  const plates = [...real, ...madeUp];
  const entries: string[] = plates.map((plate) => written(plate, random));
  for (let i = 0; i < duplicates; i++) {
    const plate = plates[Math.floor(random() * plates.length)] ?? "";
    // Repeated as it might be further down a list: run together, or lower case.
    entries.push(random() < 0.5 ? plate : plate.toLowerCase());
  }
  for (let i = 0; i < invalid; i++)
    entries.push(NOT_PLATES[i % NOT_PLATES.length] ?? "");
  // Shuffled (Fisher-Yates), so repeats and bad rows are spread through the file.
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j] ?? "", entries[i] ?? ""];
  }
  const lines = [HEADER.join(",")];
  entries.forEach((entry, index) => {
    const make = MAKES[Math.floor(random() * MAKES.length)];
    const depot = DEPOTS[index % DEPOTS.length];
    lines.push(
      `F${String(index + 1).padStart(6, "0")},${entry},${make},${depot}`,
    );
  });
  return {
    csv: lines.join("\r\n") + "\r\n",
    registrationColumn: 1,
    expected: { rows, unique, duplicates, invalid },
    madeUp: madeUp.length,
  };
}
