// A one-time link's token is out of the address bar before the link's page has loaded.
import { afterEach, expect, it } from "vitest";
import { forgetLinkToken, linkToken } from "./lib/link-token.ts";
import { linkPages } from "./index.ts";

afterEach(() => {
  forgetLinkToken();
  window.history.replaceState(null, "", "/");
});

it("takes the token out of the address bar before it loads the pages, and keeps it for them", async () => {
  window.history.replaceState(null, "", "/sign-in/link?next=%2F#token=tok-123");
  const loading = linkPages();
  expect(window.location.hash).toBe("");
  expect(window.location.pathname + window.location.search).toBe(
    "/sign-in/link?next=%2F",
  );
  expect(linkToken("/sign-in/link", "")).toBe("tok-123");
  expect((await loading).SignInLinkPage).toBeTypeOf("function");
});
