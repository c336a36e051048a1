// The pinned lookup answers only with the checked addresses, in both of the shapes Node's
// connect asks for, and never with an address of a family it was not given.
import type { LookupAddress, LookupOptions } from "node:dns";
import { describe, expect, it } from "vitest";
import { pinnedLookup } from "./pinned-lookup.ts";

const checked: LookupAddress[] = [
  { address: "93.184.215.14", family: 4 },
  { address: "2606:2800:21f:cb07::1", family: 6 },
];

/** What the lookup calls back with for `options`. */
function answer(
  addresses: LookupAddress[],
  options: LookupOptions,
): Promise<{
  error: NodeJS.ErrnoException | null;
  address: unknown;
  family: unknown;
}> {
  return new Promise((resolve) => {
    pinnedLookup(addresses)(
      "rebinding.example",
      options,
      (error, address, family) => resolve({ error, address, family }),
    );
  });
}

describe("pinnedLookup", () => {
  it("gives every checked address when all are asked for, whatever the name", async () => {
    const { error, address } = await answer(checked, { all: true });
    expect(error).toBeNull();
    expect(address).toEqual(checked);
  });

  it("gives the first checked address when one is asked for", async () => {
    expect(await answer(checked, {})).toEqual({
      error: null,
      address: "93.184.215.14",
      family: 4,
    });
  });

  it("keeps to the family asked for", async () => {
    expect(await answer(checked, { family: 6 })).toMatchObject({
      address: "2606:2800:21f:cb07::1",
      family: 6,
    });
    expect(
      (await answer(checked, { family: "IPv4", all: true })).address,
    ).toEqual([checked[0]]);
  });

  it("fails, rather than asking DNS, when no checked address is of the family asked for", async () => {
    const { error } = await answer([checked[0]!], { family: 6 });
    expect(error?.code).toBe("ENOTFOUND");
    expect(error?.message).toMatch(
      /rebinding\.example has no checked IPv6 address/,
    );
  });
});
