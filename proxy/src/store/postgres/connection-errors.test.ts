import { describe, expect, it } from "vitest";
import { DependencyUnavailableError } from "@vics/shared/server/dependency-unavailable";
import { isConnectionError, storeError } from "./connection-errors.ts";

const withCode = (code: string, message = "x") =>
  Object.assign(new Error(message), { code });

describe("which pg errors mean PostgreSQL is not there", () => {
  it.each([
    ["refused", withCode("ECONNREFUSED")],
    ["reset", withCode("ECONNRESET")],
    ["a connection exception (class 08)", withCode("08006")],
    ["an administrator's shutdown", withCode("57P01")],
    ["a crash", withCode("57P02")],
    ["a server starting up", withCode("57P03")],
    [
      "the connection ended under a query",
      new Error("Connection terminated unexpectedly"),
    ],
    [
      "no connection in time",
      new Error("timeout exceeded when trying to connect"),
    ],
    ["every address refused", new AggregateError([withCode("ECONNREFUSED")])],
  ])("%s is DependencyUnavailableError", (_, error) => {
    expect(isConnectionError(error)).toBe(true);
    const thrown = storeError(error);
    expect(thrown).toBeInstanceOf(DependencyUnavailableError);
    expect((thrown as Error).cause).toBe(error);
  });

  it.each([
    ["a unique violation", withCode("23505")],
    ["a syntax error", withCode("42601")],
    ["a refused privilege", withCode("42501", "permission denied")],
    ["not an error", "Connection terminated"],
  ])("%s is thrown as it is", (_, error) => {
    expect(isConnectionError(error)).toBe(false);
    expect(storeError(error)).toBe(error);
  });
});
