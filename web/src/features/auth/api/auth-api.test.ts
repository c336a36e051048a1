// The sign-in feature's writes: each leaves the cached session as the proxy now has it.
import { describe, expect, it } from "vitest";
import { AUTH_PATHS } from "@vics/shared";
import { HttpResponse, http } from "msw";
import { json } from "../../../testing/api-handlers.ts";
import { sessionFixture, userFixture } from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import {
  isInvalidated,
  renderMutation,
} from "../../../testing/render-mutation.tsx";
import { server } from "../../../testing/server.ts";
import { useFirstPasswordMutation, useUnlinkOidcMutation } from "./auth-api.ts";
import { sessionQueryOptions, useSessionMutation } from "./session-query.ts";

const sessionKey = sessionQueryOptions().queryKey;

describe("a write whose answer is a session", () => {
  it("tells the screen first, then caches the new session", async () => {
    const before = sessionFixture();
    const after = sessionFixture(userFixture({ id: "u-other" }));
    const seen: unknown[] = [];
    const { queryClient, result } = renderMutation(() =>
      useSessionMutation(() => Promise.resolve(after), {
        onSuccess: () => seen.push(queryClient.getQueryData(sessionKey)),
      }),
    );
    queryClient.setQueryData(sessionKey, before);

    await result.current.mutateAsync();

    expect(seen).toEqual([before]);
    expect(queryClient.getQueryData(sessionKey)).toEqual(after);
  });
});

describe("setting a first password", () => {
  function refusedWith(code: "CONFLICT" | "FORBIDDEN", status: number) {
    server.use(
      http.post(AUTH_PATHS.firstPassword, () =>
        json(problemFixture(code, status), status),
      ),
    );
    const refused: unknown[] = [];
    const rendered = renderMutation(() =>
      useFirstPasswordMutation({ onError: (error) => refused.push(error) }),
    );
    rendered.queryClient.setQueryData(sessionKey, sessionFixture());
    return { ...rendered, refused };
  }

  it("asks who is signed in again when the account has a password already", async () => {
    const { queryClient, result, refused } = refusedWith("CONFLICT", 409);

    await expect(
      result.current.mutateAsync("a long new password"),
    ).rejects.toThrow();

    expect(refused).toHaveLength(1);
    expect(isInvalidated(queryClient, sessionKey)).toBe(true);
  });

  it("keeps the session as it is when refused for another reason", async () => {
    const { queryClient, result, refused } = refusedWith("FORBIDDEN", 403);

    await expect(
      result.current.mutateAsync("a long new password"),
    ).rejects.toThrow();

    expect(refused).toHaveLength(1);
    expect(isInvalidated(queryClient, sessionKey)).toBe(false);
  });
});

describe("unlinking one's own organisation sign-in", () => {
  it("asks who is signed in again, as the session said it was linked", async () => {
    server.use(
      http.delete(
        AUTH_PATHS.oidcLink,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    const { queryClient, result } = renderMutation(() =>
      useUnlinkOidcMutation(),
    );
    queryClient.setQueryData(sessionKey, sessionFixture());

    await result.current.mutateAsync();

    expect(isInvalidated(queryClient, sessionKey)).toBe(true);
  });
});
