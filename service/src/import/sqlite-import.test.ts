import { describe } from "vitest";
import { openSqliteHarness } from "../testing/sqlite-harness.ts";
import { importContract } from "./import.contract.ts";
import { registerNewerContract } from "./register-newer.contract.ts";
import { pointInTimeContract } from "../routes/point-in-time.contract.ts";

describe("importing into SQLite", () => {
  importContract(async () => openSqliteHarness());
});

describe("point-in-time answers from SQLite", () => {
  pointInTimeContract(async () => openSqliteHarness());
});

describe("importing into SQLite over a live register's facts", () => {
  registerNewerContract(async () => openSqliteHarness());
});
