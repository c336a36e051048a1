import { describe, expect, it } from "vitest";
import { appUrl } from "./app-url.ts";

describe("the app's address npm start prints", () => {
  it("is PUBLIC_ORIGIN when set: the loopback address would answer 421", () => {
    expect(
      appUrl({
        host: "127.0.0.1",
        port: 3000,
        publicOrigin: "https://vics.example.org",
      }),
    ).toBe("https://vics.example.org/");
  });

  it.each([
    ["127.0.0.1", "http://127.0.0.1:3000/"],
    ["0.0.0.0", "http://127.0.0.1:3000/"],
    ["::", "http://127.0.0.1:3000/"],
    ["::1", "http://[::1]:3000/"],
    ["localhost", "http://localhost:3000/"],
  ])("is the address the proxy listens on otherwise (HOST=%s)", (host, url) => {
    expect(appUrl({ host, port: 3000, publicOrigin: undefined })).toBe(url);
  });
});
