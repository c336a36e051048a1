import { describe, expect, it } from "vitest";
import { DependencyUnavailableError } from "./dependency-unavailable.ts";
import {
  isPostgresUnreachable,
  reachingPostgres,
  storeError,
} from "./postgres-errors.ts";

const withCode = (code: string, message = "failed") =>
  Object.assign(new Error(message), { code });

describe("isPostgresUnreachable", () => {
  it.each([
    ["refused", withCode("ECONNREFUSED")],
    ["reset", withCode("ECONNRESET")],
    ["a host name that does not resolve", withCode("ENOTFOUND")],
    [
      "both addresses of localhost refused",
      new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]),
    ],
    ["pg's dead connection", new Error("Connection terminated unexpectedly")],
    [
      "pg's connect timeout",
      new Error("timeout exceeded when trying to connect"),
    ],
    ["class 08", withCode("08006", "connection failure")],
    [
      "administrator shutdown",
      withCode("57P01", "terminating connection due to administrator command"),
    ],
    ["crash shutdown", withCode("57P02")],
    ["starting up", withCode("57P03", "the database system is starting up")],
  ])("is true when %s", (_, error) => {
    expect(isPostgresUnreachable(error)).toBe(true);
    const thrown = storeError(error);
    expect(thrown).toBeInstanceOf(DependencyUnavailableError);
    expect((thrown as Error).cause).toBe(error);
  });

  it.each([
    ["a unique violation", withCode("23505", "duplicate key")],
    ["a syntax error", withCode("42601", "syntax error")],
    ["a refused privilege", withCode("42501", "permission denied")],
    [
      "a missing table",
      withCode("42P01", 'relation "vehicles" does not exist'),
    ],
    [
      "a query cancelled by its timeout",
      withCode("57014", "canceling statement due to statement timeout"),
    ],
    ["not an Error", "ECONNREFUSED"],
  ])("is false for %s, which is thrown as it is", (_, error) => {
    expect(isPostgresUnreachable(error)).toBe(false);
    expect(storeError(error)).toBe(error);
  });
});

describe("reachingPostgres", () => {
  it("turns a connection failure into the database's DependencyUnavailableError, and lets any other error through", async () => {
    const refused = withCode(
      "ECONNREFUSED",
      "connect ECONNREFUSED 127.0.0.1:5432",
    );
    const error = await reachingPostgres(() => Promise.reject(refused)).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DependencyUnavailableError);
    expect((error as DependencyUnavailableError).dependency).toBe("database");
    expect((error as Error).cause).toBe(refused);
    const bug = withCode("42601", "syntax error");
    await expect(reachingPostgres(() => Promise.reject(bug))).rejects.toBe(bug);
    await expect(reachingPostgres(async () => 7)).resolves.toBe(7);
  });
});
