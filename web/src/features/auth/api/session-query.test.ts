// A sign-in's answer wins over a "who is signed in?" asked before it, without the new cookie.
import { describe, expect, it } from "vitest";
import { AUTH_PATHS } from "@vics/shared";
import { http } from "msw";
import { json } from "../../../testing/api-handlers.ts";
import { sessionFixture } from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/server.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session-user.ts";
import { applySession, sessionQueryOptions } from "./session-query.ts";

describe("applySession", () => {
  it("is not undone by a session question that was in flight, whose 401 comes after", async () => {
    // The proxy holds GET session until the sign-in has been applied, then says "nobody".
    let answer401!: () => void;
    const held = new Promise<void>((resolve) => (answer401 = resolve));
    let asked = 0;
    server.use(
      http.get(AUTH_PATHS.session, async () => {
        asked += 1;
        await held;
        return json(problemFixture("SIGN_IN_REQUIRED", 401), 401);
      }),
    );
    const queryClient = createQueryClient();
    const asking = queryClient
      .fetchQuery(sessionQueryOptions())
      .catch(() => undefined);
    await expect.poll(() => asked).toBe(1);

    const session = sessionFixture();
    await applySession(queryClient, session);
    answer401();
    await asking;
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(queryClient.getQueryData(SESSION_QUERY_KEY)).toEqual(session);
  });
});
