import { describe } from "vitest";
import { openSqliteHarness } from "../test-support/sqlite-harness.ts";
import { importContract } from "./import.contract.ts";
import { pointInTimeContract } from "../routes/point-in-time.contract.ts";

describe("importing into SQLite", () => {
  importContract(async () => openSqliteHarness());
});

describe("point-in-time answers from SQLite", () => {
  pointInTimeContract(async () => openSqliteHarness());
});
