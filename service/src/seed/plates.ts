import { addDays, type IsoDate } from "@vics/shared";
import type { Random } from "./random.ts";

// DVLA never issues I or Q in the random letters; Z only as a dateless marker.
const LETTERS = "ABCDEFGHJKLMNOPRSTUVWXY";
const CURRENT_FORMAT_START = "2001-09-01";
const PREFIX_FORMAT_START = "1983-08-01";

function letters(random: Random, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) text += random.pick([...LETTERS]);
  return text;
}

function digits(random: Random, min: number, max: number): string {
  return String(random.int(10 ** (min - 1), 10 ** max - 1));
}

/** Age identifier of a current-format plate: "19" for March 2019, "69" for September 2019. */
export function ageIdentifier(firstRegistered: IsoDate): string {
  const year = Number(firstRegistered.slice(2, 4));
  const month = Number(firstRegistered.slice(5, 7));
  if (month >= 9) return String(year + 50);
  if (month >= 3) return String(year).padStart(2, "0");
  // January and February still carry the previous September's identifier.
  return String(year - 1 + 50);
}

/**
 * The days a current-format age identifier stands for, the inverse of `ageIdentifier`: "25"
 * is 1 March to 31 August 2025, "75" is 1 September 2025 to the end of February 2026.
 */
export function agePeriod(identifier: string): { from: IsoDate; to: IsoDate } {
  const number = Number(identifier);
  if (number < 50) {
    const year = 2000 + number;
    return { from: `${year}-03-01`, to: `${year}-08-31` };
  }
  const year = 2000 + number - 50;
  return { from: `${year}-09-01`, to: addDays(`${year + 1}-03-01`, -1) };
}

/** A plate in the format a vehicle first registered on that date would carry. */
export function syntheticPlate(
  random: Random,
  firstRegistered: IsoDate,
): string {
  // A few owners carry a dateless (cherished) plate whatever the car's age.
  if (random.chance(0.03))
    return random.chance(0.8)
      ? letters(random, random.int(1, 3)) + digits(random, 1, 4)
      : digits(random, 1, 4) + letters(random, random.int(1, 3));
  if (firstRegistered >= CURRENT_FORMAT_START)
    return (
      letters(random, 2) + ageIdentifier(firstRegistered) + letters(random, 3)
    );
  if (firstRegistered >= PREFIX_FORMAT_START)
    return letters(random, 1) + digits(random, 1, 3) + letters(random, 3);
  return letters(random, 3) + digits(random, 1, 3) + letters(random, 1);
}
