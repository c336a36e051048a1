// The webhook address check refuses, in words, every URL that could reach this machine or an
// internal network, by IP or by a name that resolves there, and lets public ones through with
// the addresses to connect to.
import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { type Lookup, checkWebhookUrl } from "./webhook-address.ts";

/** A lookup that answers `addresses` for every name, and counts its calls. */
function fakeLookup(...addresses: string[]): Lookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    return addresses.map((address) => ({
      address,
      family: address.includes(":") ? 6 : 4,
    }));
  };
  return Object.assign(lookup, { calls });
}

const noLookup: Lookup = () =>
  Promise.reject(new Error("an IP literal needs no lookup"));

async function reasonFor(
  url: string,
  lookup: Lookup = noLookup,
): Promise<string> {
  const check = await checkWebhookUrl(url, { allowPrivate: false, lookup });
  return check.ok ? "accepted" : check.reason;
}

describe("checkWebhookUrl refuses the internal network", () => {
  it.each([
    ["http://127.0.0.1/hook", /127\.0\.0\.1 is a loopback address/],
    ["http://127.8.9.10:8080/hook", /loopback/],
    ["http://10.0.0.1/hook", /10\.0\.0\.1 is a private-network address/],
    ["http://172.16.5.4/", /private-network/],
    ["http://172.31.255.255/", /private-network/],
    ["http://192.168.1.1/", /private-network/],
    [
      "http://169.254.169.254/latest/meta-data/",
      /169\.254\.169\.254 is a link-local .*metadata/,
    ],
    ["http://100.64.0.1/", /carrier-grade NAT/],
    ["http://0.0.0.0/", /unspecified/],
    ["http://224.0.0.1/", /multicast/],
    ["http://255.255.255.255/", /broadcast/],
    ["http://240.0.0.1/", /reserved/],
    ["http://192.0.2.10/", /reserved/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.1/", /127\.0\.0\.1 is a loopback/],
    ["http://[::1]/hook", /::1 is a loopback/],
    ["http://[::]/", /unspecified/],
    ["http://[::ffff:127.0.0.1]/hook", /IPv4-mapped 127\.0\.0\.1, a loopback/],
    [
      "http://[::ffff:169.254.169.254]/",
      /IPv4-mapped 169\.254\.169\.254, a link-local/,
    ],
    ["http://[::ffff:10.0.0.1]/", /IPv4-mapped 10\.0\.0\.1, a private-network/],
    ["http://[fc00::1]/", /unique-local/],
    ["http://[fd12:3456::1]/", /unique-local/],
    ["http://[fe80::1]/", /link-local/],
    ["http://[ff02::1]/", /multicast/],
    ["http://[64:ff9b::a00:1]/", /NAT64/],
    ["http://[2002:7f00:1::1]/", /6to4/],
    ["http://[::7f00:1]/", /outside the public range 2000::\/3/],
    ["http://[2001:db8::1]/", /reserved/],
  ])("refuses %s", async (url, words) => {
    const reason = await reasonFor(url);
    expect(reason).toMatch(words);
    expect(reason).toMatch(/a webhook may only call public internet addresses/);
  });

  it("refuses localhost, as the system resolves it", async () => {
    const check = await checkWebhookUrl("http://localhost:8080/hook", {
      allowPrivate: false,
    });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.reason).toMatch(
        /localhost resolves to (127\.0\.0\.1|::1), which is a loopback/,
      );
    }
  });

  it("refuses a name that resolves to a private address", async () => {
    const lookup = fakeLookup("10.0.0.1");
    expect(await reasonFor("https://hooks.example.com/x", lookup)).toMatch(
      /hooks\.example\.com resolves to 10\.0\.0\.1, which is a private-network address/,
    );
    expect(lookup.calls).toEqual(["hooks.example.com"]);
  });

  it("refuses a name when any one of its addresses is private", async () => {
    const lookup = fakeLookup(
      "93.184.215.14",
      "2606:2800:21f:cb07::1",
      "fd00::5",
    );
    expect(await reasonFor("https://hooks.example.com/x", lookup)).toMatch(
      /resolves to fd00::5, which is a unique-local/,
    );
  });

  it("refuses a name that cannot be found, or has no address", async () => {
    const notFound: Lookup = () =>
      Promise.reject(
        Object.assign(new Error("getaddrinfo ENOTFOUND"), {
          code: "ENOTFOUND",
        }),
      );
    expect(await reasonFor("https://nowhere.example/x", notFound)).toBe(
      "The webhook's host nowhere.example could not be found (ENOTFOUND).",
    );
    expect(await reasonFor("https://empty.example/x", fakeLookup())).toMatch(
      /has no address/,
    );
  });
});

describe("checkWebhookUrl refuses URLs that are not plain http(s)", () => {
  it.each([
    ["not a url", /not a URL/],
    [
      "ftp://files.example.com/x",
      /starts with ftp:; it must be an http:\/\/ or https:\/\/ URL/,
    ],
    ["file:///etc/passwd", /starts with file:/],
    ["javascript:alert(1)", /starts with javascript:/],
    ["https://user:secret@hooks.example.com/x", /user name or password/],
    ["https://token@hooks.example.com/x", /user name or password/],
  ])("refuses %s", async (url, words) => {
    const lookup = fakeLookup("93.184.215.14");
    expect(await reasonFor(url, lookup)).toMatch(words);
    expect(lookup.calls).toEqual([]);
  });

  it("refuses credentials even when private addresses are allowed", async () => {
    const check = await checkWebhookUrl("http://me:pw@127.0.0.1/", {
      allowPrivate: true,
    });
    expect(check.ok).toBe(false);
  });
});

describe("checkWebhookUrl accepts", () => {
  it("a public name, with every address it resolves to", async () => {
    const lookup = fakeLookup(
      "93.184.215.14",
      "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
    );
    const check = await checkWebhookUrl(
      "https://hooks.example.com:8443/vics?team=1",
      {
        allowPrivate: false,
        lookup,
      },
    );
    expect(check).toEqual({
      ok: true,
      url: new URL("https://hooks.example.com:8443/vics?team=1"),
      addresses: [
        { address: "93.184.215.14", family: 4 },
        { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
      ],
    });
  });

  it("a public IP without looking it up", async () => {
    const check = await checkWebhookUrl("http://8.8.8.8/hook", {
      allowPrivate: false,
      lookup: noLookup,
    });
    expect(check.ok && check.addresses).toEqual([
      { address: "8.8.8.8", family: 4 },
    ]);
    const v6 = await checkWebhookUrl("http://[2606:4700::1111]/", {
      allowPrivate: false,
      lookup: noLookup,
    });
    expect(v6.ok && v6.addresses).toEqual([
      { address: "2606:4700::1111", family: 6 },
    ]);
  });

  it("127.0.0.1 and a name resolving to 10.0.0.1 when private addresses are allowed", async () => {
    const loopback = await checkWebhookUrl("http://127.0.0.1:9000/hook", {
      allowPrivate: true,
    });
    expect(loopback.ok && loopback.addresses).toEqual([
      { address: "127.0.0.1", family: 4 },
    ]);
    const internal = await checkWebhookUrl("http://hooks.internal/x", {
      allowPrivate: true,
      lookup: fakeLookup("10.0.0.1"),
    });
    expect(internal.ok && internal.addresses).toEqual([
      { address: "10.0.0.1", family: 4 },
    ]);
  });
});
