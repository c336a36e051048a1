import { describe, expect, it } from "vitest";
import {
  describeMigrations,
  type MigrationStatus,
} from "./migration-status.ts";

const status = (ran: number | undefined, steps = 5): MigrationStatus => ({
  whose: "The service's database",
  server: "the service",
  engine: "SQLite",
  place: "data/vics.sqlite",
  ran,
  steps,
  runBy: "`scripts/db migrate` or the service's next start",
});

describe("describeMigrations", () => {
  it.each([
    [
      5,
      "The service's database at data/vics.sqlite (SQLite): ran steps 1-5 of 5, none pending.",
    ],
    [
      3,
      "The service's database at data/vics.sqlite (SQLite): ran steps 1-3 of 5; steps 4-5 pending, run by `scripts/db migrate` or the service's next start.",
    ],
    [
      4,
      "The service's database at data/vics.sqlite (SQLite): ran steps 1-4 of 5; step 5 pending, run by `scripts/db migrate` or the service's next start.",
    ],
    [
      0,
      "The service's database at data/vics.sqlite (SQLite): no steps run of 5; steps 1-5 pending, run by `scripts/db migrate` or the service's next start.",
    ],
    [
      undefined,
      "The service's database at data/vics.sqlite (SQLite) is not made yet: steps 1-5 pending, run by `scripts/db migrate` or the service's next start.",
    ],
    [
      7,
      "The service's database at data/vics.sqlite (SQLite) has run steps 1-7, 2 more than this release knows (5): a newer release migrated it.",
    ],
  ])("with %s steps run of 5", (ran, words) => {
    expect(describeMigrations(status(ran))).toBe(words);
  });

  it("on PostgreSQL, says a database with no record of the steps may be another server's", () => {
    expect(
      describeMigrations({
        ...status(undefined, 4),
        engine: "PostgreSQL",
        place: "postgres://vics@db:5432/vics",
      }),
    ).toBe(
      "The service's database at postgres://vics@db:5432/vics (PostgreSQL) has no record of its steps there: it is not made yet, or the service's own DATABASE_URL names another database. If it is this one, steps 1-4 are pending, run by `scripts/db migrate` or the service's next start.",
    );
  });

  it("names a single step as one", () => {
    expect(describeMigrations(status(1, 1))).toBe(
      "The service's database at data/vics.sqlite (SQLite): ran step 1 of 1, none pending.",
    );
  });
});
