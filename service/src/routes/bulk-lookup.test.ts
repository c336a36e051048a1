import { ukDate } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { seedVehicles } from "../seed/seed-data.ts";
import { DEFAULT_FLEET_SEED } from "../seed/fleet.ts";
import type { Store } from "../store/store.ts";
import { FIXED_NOW, fixedNow, postBulk } from "../testing/requests.ts";
import { freshServices } from "../testing/services.ts";

const start = freshServices({ now: fixedNow, fleetSize: 200 });

/** Wraps every store method to count its calls. */
function countingStore(calls: Map<string, number>) {
  return (store: Store): Store =>
    Object.fromEntries(
      Object.entries(store).map(([name, method]) => [
        name,
        (...args: unknown[]) => {
          calls.set(name, (calls.get(name) ?? 0) + 1);
          return (method as (...args: unknown[]) => unknown)(...args);
        },
      ]),
    ) as unknown as Store;
}

/** Every registration the test database holds: the reference ones and the synthetic fleet. */
const held = [
  ...seedVehicles({
    fleetSize: 200,
    seed: DEFAULT_FLEET_SEED,
    today: ukDate(FIXED_NOW),
  }),
].map((vehicle) => vehicle.registration);

/** 1,000 registrations: each held one twice, and unknown and invalid ones. */
function thousandRegistrations(): string[] {
  const list = [
    ...held,
    ...held.map((registration) => registration.toLowerCase()),
  ];
  for (let i = 0; list.length < 1000; i++)
    list.push(i % 3 ? `ZZ${String(i % 100).padStart(2, "0")}ZZZ` : `bad-${i}!`);
  return list;
}

// The insurance check reads only what its items show: no MOT tests, tax or fines.
describe.each([
  ["/v1/vehicle/bulk-insurance", "findInsurances"],
  ["/v1/vehicle/bulk-compliance", "findVehicles"],
])("POST %s reads the database a constant number of times", (path, lookup) => {
  async function storeCallsFor(registrations: string[]) {
    const calls = new Map<string, number>();
    const service = await start({ wrapStore: countingStore(calls) });
    const key = await service.createKey("internal");
    calls.clear(); // creating the key is not part of the request
    const response = await postBulk(service, path, { registrations }, { key });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      processed: number;
      successful: number;
    };
    return { calls: Object.fromEntries(calls), answer };
  }

  it(`one ${lookup} call for 1,000 registrations, as for 3`, async () => {
    const thousand = await storeCallsFor(thousandRegistrations());
    expect(thousand.answer.processed).toBe(1000);
    // Every held vehicle was found, both times it was listed.
    expect(thousand.answer.successful).toBe(held.length * 2);
    // One key lookup (authentication) and one vehicle lookup: nothing per item.
    // dataInfo: the answer's freshness, which the store holds (held-data-info.ts).
    expect(thousand.calls).toEqual({
      findKeyByHash: 1,
      dataInfo: 1,
      [lookup]: 1,
    });

    const three = await storeCallsFor(["AB12CDE", "ZZ99ZZZ", "!!"]);
    expect(three.calls).toEqual(thousand.calls);
  });

  it("no vehicle lookup at all when nothing is valid", async () => {
    const { calls } = await storeCallsFor(["!!", "?"]);
    expect(calls).toEqual({ findKeyByHash: 1, dataInfo: 1 });
  });
});
