import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { afterAll, describe, expect, it } from "vitest";
import { countingPool } from "@vics/server-kit/testing/statement-counter";
import {
  importer,
  POLICIES,
  policy,
  VEHICLES,
  vehicle,
} from "../../testing/import-files.ts";
import { migratedPool } from "../../testing/postgres-harness.ts";
import { heldDataInfoContract } from "../held-data-info.contract.ts";
import { DATA_INFO_TTL_MS } from "../held-data-info.ts";
import { postgresImportStore } from "./import-writer.ts";
import { openStorePool, postgresStore } from "./postgres-store.ts";

const server = sharedPostgres();

let databases = 0;
const heldDatabase = () => migratedPool(server(), `held_${++databases}`);

const META = /\bFROM meta\b/;

describe("the PostgreSQL store's data info", () => {
  // The imports come through the store itself, as an import run by this process.
  heldDataInfoContract(async () => {
    const { pool } = await heldDatabase();
    const counted = countingPool(pool, META);
    const store = postgresStore(counted.database);
    return {
      store,
      imports: store,
      metaReads: counted.count,
      close: () => store.close(),
    };
  });

  describe("an import by another replica", () => {
    let replica: { close(): Promise<void> } | undefined;
    afterAll(() => replica?.close());
    const files = importer(
      () => ({ imports: postgresImportStore(other) }),
      "2026-11-24T06:00:00Z",
    );
    let other: ReturnType<typeof openStorePool>;

    it("shows once the held read is DATA_INFO_TTL_MS old, not before", async () => {
      const { url, pool } = await heldDatabase();
      other = openStorePool({ url, poolSize: 1 });
      let clock = 0;
      const counted = countingPool(pool, META);
      const store = postgresStore(counted.database, { now: () => clock });
      replica = {
        close: async () => {
          await store.close();
          await other.end();
        },
      };
      expect(await store.dataInfo()).toEqual({ asOf: {} });
      await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
      await files.run("policies", [POLICIES, policy("AB12CDE", "POL-1")]);
      clock += DATA_INFO_TTL_MS - 1;
      expect(await store.dataInfo()).toEqual({ asOf: {} });
      expect(counted.count()).toBe(1);
      clock += 1;
      expect(await store.dataInfo()).toMatchObject({
        since: expect.any(String),
        asOf: { insurance: expect.any(String) },
      });
      expect(counted.count()).toBe(2);
    });
  });
});
