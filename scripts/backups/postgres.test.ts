// What the PostgreSQL tools are given on their command line, and what of their errors is
// printed: no password on a command line (ps shows it to every user), no row in an error.
import { describe, expect, it } from "vitest";
import { libpq, toolSaid } from "./postgres.ts";

describe("libpq's connection for pg_dump, pg_restore and psql", () => {
  it("moves the password of the user part to PGPASSWORD", () => {
    const { dbname, env } = libpq("postgres://vics:s%40cret@db:5432/vics");
    expect(dbname).toBe("postgres://vics@db:5432/vics");
    expect(env.PGPASSWORD).toBe("s@cret");
  });

  it("moves a password query parameter there too (it wins, as in node-postgres), keeping the others as written", () => {
    const { dbname, env } = libpq(
      "postgres://vics:old@db/vics?sslmode=require&password=n%26w%3Dpass&application_name=a%20b",
    );
    expect(dbname).toBe(
      "postgres://vics@db/vics?sslmode=require&application_name=a%20b",
    );
    expect(dbname).not.toContain("pass");
    expect(env.PGPASSWORD).toBe("n&w=pass");
  });

  it("gives no PGPASSWORD when there is no password, and leaves the URL as it was", () => {
    const { dbname, env } = libpq(
      "postgres://vics@db/vics?sslmode=verify-full",
    );
    expect(dbname).toBe("postgres://vics@db/vics?sslmode=verify-full");
    expect(env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });

  it("refuses an sslpassword, which no environment variable of libpq can carry", () => {
    expect(() =>
      libpq("postgres://vics@db/vics?sslkey=/k.pem&sslpassword=secret"),
    ).toThrow(/sslpassword/);
  });
});

describe("what a failed PostgreSQL tool said, as printed", () => {
  it("leaves out the messages that quote a row, and masks a value quoted at a line's end", () => {
    const said = [
      'psql:/var/lib/vics-backups/vics-restore-x/restore.sql:812: ERROR:  duplicate key value violates unique constraint "users_email_key"',
      "DETAIL:  Key (email)=(ann@x.example) already exists.",
      'CONTEXT:  COPY users, line 2: "2\tann@x.example\t$argon2id$v=19$m=19456"',
      'pg_restore: error: COPY failed for table "users": ERROR:  invalid input syntax for type uuid: "ann@x.example"',
      'CONTEXT:  COPY users, line 1, column id: "ann@x.example"',
      "pg_restore: error: could not execute query: ERROR:  new row violates check constraint",
      "DETAIL:  Failing row contains (3, bob@x.example,",
      "   $argon2id$v=19$m=19456).",
      "Command was: INSERT INTO users VALUES (3, 'bob@x.example');",
      "LINE 1: INSERT INTO users VALUES (3, 'bob@x.example');",
      "                                    ^",
      "HINT:  Check the constraint.",
      "pg_restore: warning: errors ignored on restore: 2",
    ].join("\n");
    const printed = toolSaid(said);
    expect(printed).not.toMatch(/@x\.example|argon2/);
    expect(printed.split("\n")).toEqual([
      'psql:/var/lib/vics-backups/vics-restore-x/restore.sql:812: ERROR:  duplicate key value violates unique constraint "users_email_key"',
      'pg_restore: error: COPY failed for table "users": ERROR:  invalid input syntax for type uuid: "..."',
      "pg_restore: error: could not execute query: ERROR:  new row violates check constraint",
      "HINT:  Check the constraint.",
      "pg_restore: warning: errors ignored on restore: 2",
    ]);
  });

  it("keeps a connection failure whole", () => {
    const said =
      'pg_dump: error: connection to server at "127.0.0.1", port 1 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n';
    expect(toolSaid(said)).toBe(said.trim());
  });
});
