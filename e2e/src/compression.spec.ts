// What a browser receives from the stack `npm start` runs: the web app's build (with the
// Brotli and gzip copies web/vite.config.ts writes) through the proxy. Every script and
// stylesheet the first page loads, and the page itself, come as Brotli with
// `Vary: Accept-Encoding`; a client that asks for no encoding gets the files as they are.
import { expect, test, type Response } from "@playwright/test";

test("a first visit receives the page, its scripts and its stylesheets as Brotli", async ({
  page,
}) => {
  const received: Response[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname === "/" || /\.(js|css)$/.test(url.pathname))
      received.push(response);
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const files = received.filter((response) => response.status() === 200);
  expect(files.map((response) => new URL(response.url()).pathname)).toEqual(
    expect.arrayContaining(["/", expect.stringMatching(/^\/assets\/.+\.js$/)]),
  );
  for (const response of files) {
    const headers = await response.allHeaders();
    const what = `${new URL(response.url()).pathname}: ${JSON.stringify(headers)}`;
    // The tiny files the build left as they are (no copy smaller) are the only exception.
    if (Number(headers["content-length"] ?? 1024) < 200) continue;
    expect(headers["content-encoding"], what).toBe("br");
    expect(headers["vary"], what).toBe("Accept-Encoding");
  }
});

test("a client that takes no encoding gets the files as they are", async ({
  request,
}) => {
  const page = await request.get("/", {
    headers: { "Accept-Encoding": "identity" },
  });
  expect(page.status()).toBe(200);
  expect(page.headers()["content-encoding"]).toBeUndefined();
  expect(page.headers()["vary"]).toBe("Accept-Encoding");
  const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(
    await page.text(),
  )?.[1];
  expect(script).toBeDefined();
  for (const [accept, encoding] of [
    ["identity", undefined],
    ["gzip", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
  ] as const) {
    const answer = await request.get(script!, {
      headers: { "Accept-Encoding": accept },
    });
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-encoding"], accept).toBe(encoding);
    expect(answer.headers()["content-type"]).toMatch(/javascript/);
    expect(answer.headers()["cache-control"]).toBe(
      "public, max-age=31536000, immutable",
    );
  }
});
