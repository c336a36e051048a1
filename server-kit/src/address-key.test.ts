import { describe, expect, it } from "vitest";
import { addressKey } from "./address-key.ts";

describe("addressKey", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["192.0.2.10", "192.0.2.10"],
    ["::ffff:127.0.0.2", "127.0.0.2"],
    ["::FFFF:192.0.2.10", "192.0.2.10"],
    ["0:0:0:0:0:ffff:c000:20a", "192.0.2.10"],
    ["::1", "0:0:0:0::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:0:1:aaaa:bbbb:cccc:dddd", "2001:db8:0:1::/64"],
    ["2001:0DB8:0000:0001::", "2001:db8:0:1::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["64:ff9b::192.0.2.10", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
    ["", ""],
  ])("%s counts as %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it("counts two addresses in one IPv6 /64 as one, and the next /64 apart", () => {
    const one = addressKey("2001:db8:1:2:1111:2222:3333:4444");
    expect(addressKey("2001:db8:1:2::99")).toBe(one);
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe(one);
    expect(addressKey("2001:db8:1:3::1")).not.toBe(one);
  });

  it("keeps IPv4 addresses apart, however close", () => {
    expect(addressKey("127.0.0.1")).not.toBe(addressKey("127.0.0.2"));
  });
});
