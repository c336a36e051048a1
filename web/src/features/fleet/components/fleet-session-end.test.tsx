import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { problemResponse } from "../testing/answers.ts";
import { savedRun } from "../testing/session.ts";
import { fakeUpstream } from "../testing/upstream.ts";
import {
  serveSession,
  serveSignIn,
  serveSignInMethods,
  sessionFixture,
  userWithRole,
} from "../../../testing/auth-fixtures.ts";
import { json } from "../../../testing/api-handlers.ts";
import {
  fleetStore,
  renderFleet,
  setUpFleetTests,
  tuneFleetRuns,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 15_000 };
const REGISTRATIONS = ["AB12CDE", "UN51NSD", "MT15EXP", "FL00001", "FL00002"];

/** A run the signed-in user started, and a proxy whose session for them ends at call 3. */
async function runWhoseSessionEnds() {
  tuneFleetRuns({ chunkSize: 1, concurrency: 1 });
  const run = savedRun(REGISTRATIONS);
  await (await fleetStore()).saveRun(run);
  let signedIn = true;
  const refused: string[] = [];
  const upstream = fakeUpstream({
    script: (call) => {
      if (call.number === 3) signedIn = false;
      if (signedIn) return undefined;
      refused.push(...call.registrations);
      return problemResponse(401, "SIGN_IN_REQUIRED");
    },
  });
  const view = renderFleet(`/fleet/runs/${run.id}`);
  serveSession(() => (signedIn ? sessionFixture() : null));
  serveSignInMethods();
  const signIns = serveSignIn(() => {
    signedIn = true;
    return json(sessionFixture());
  });
  return { run, view, upstream, refused, signIns };
}

describe("a fleet run when the user's session ends", () => {
  it(
    "stays on the run's page, says so, and after signing in again goes on: each vehicle answered once",
    { timeout: 40_000 },
    async () => {
      const { run, view, upstream, refused, signIns } =
        await runWhoseSessionEnds();
      await view.user.click(
        await screen.findByRole("button", { name: "Resume checking" }, SLOW),
      );

      expect(
        await screen.findByText(
          "Your session has ended. Sign in again to continue.",
          {},
          SLOW,
        ),
      ).toBeVisible();
      // The page stays: the run is in memory, paused, with nothing lost.
      expect(view.router.state.location.pathname).toBe(`/fleet/runs/${run.id}`);
      expect(screen.getByRole("heading", { name: "Paused" })).toBeVisible();
      expect(
        screen.queryByRole("button", { name: "Resume" }),
      ).not.toBeInTheDocument();
      const saved = await (await fleetStore()).loadRun(run.id);
      expect(saved?.run.status).toBe("paused");
      expect(saved?.results.size).toBe(2);

      const signIn = screen.getByRole("link", { name: "Sign in again" });
      expect(signIn).toHaveAttribute(
        "href",
        `/sign-in?returnTo=${encodeURIComponent(`/fleet/runs/${run.id}`)}`,
      );
      await view.user.click(signIn);
      await view.user.type(
        await screen.findByRole("textbox", { name: "Email address" }, SLOW),
        "sam.taylor@example.org",
      );
      await view.user.type(
        screen.getByLabelText("Password"),
        "a long password",
      );
      await view.user.click(screen.getByRole("button", { name: "Sign in" }));

      expect(
        await screen.findByText("Finished: 5 vehicles checked.", {}, SLOW),
      ).toBeVisible();
      expect(view.router.state.location.pathname).toBe(`/fleet/runs/${run.id}`);
      expect(signIns).toHaveLength(1);
      for (const registration of REGISTRATIONS) {
        const refusals = refused.filter((each) => each === registration).length;
        expect(upstream.requestsFor(registration) - refusals).toBe(1);
      }
      const finished = await (await fleetStore()).loadRun(run.id);
      expect(finished?.run.status).toBe("finished");
      expect([...(finished?.results.keys() ?? [])].sort()).toEqual(
        [...REGISTRATIONS].sort(),
      );
    },
  );

  it(
    "does not go on for someone else who signs in at the same browser",
    { timeout: 40_000 },
    async () => {
      const { run, view } = await runWhoseSessionEnds();
      await view.user.click(
        await screen.findByRole("button", { name: "Resume checking" }, SLOW),
      );
      await view.user.click(
        await screen.findByRole("link", { name: "Sign in again" }, SLOW),
      );
      const other = userWithRole("fleet");
      serveSignIn(() => json(sessionFixture(other)));
      serveSession(() => sessionFixture(other));
      await view.user.type(
        await screen.findByRole("textbox", { name: "Email address" }, SLOW),
        other.email,
      );
      await view.user.type(
        screen.getByLabelText("Password"),
        "a long password",
      );
      await view.user.click(screen.getByRole("button", { name: "Sign in" }));

      expect(
        await screen.findByRole(
          "heading",
          { name: "Fleet check not found" },
          SLOW,
        ),
      ).toBeVisible();
      await waitFor(async () =>
        expect((await (await fleetStore()).loadRun(run.id))?.run.status).toBe(
          "paused",
        ),
      );
    },
  );

  it(
    "goes on by itself after a page load, when the user went to sign in again from it",
    { timeout: 40_000 },
    async () => {
      // Signing in through the organisation's provider leaves the page: the run is saved paused.
      const run = { ...savedRun(REGISTRATIONS), status: "paused" as const };
      await (await fleetStore()).saveRun(run);
      const upstream = fakeUpstream();
      sessionStorage.setItem("vics:fleet-resume-after-sign-in", run.id);
      renderFleet(`/fleet/runs/${run.id}`);
      expect(
        await screen.findByText("Finished: 5 vehicles checked.", {}, SLOW),
      ).toBeVisible();
      for (const registration of REGISTRATIONS)
        expect(upstream.requestsFor(registration)).toBe(1);
      expect(
        sessionStorage.getItem("vics:fleet-resume-after-sign-in"),
      ).toBeNull();
    },
  );

  it("waits to be resumed when it was paused for any other reason", async () => {
    const run = { ...savedRun(REGISTRATIONS), status: "paused" as const };
    await (await fleetStore()).saveRun(run);
    const upstream = fakeUpstream();
    renderFleet(`/fleet/runs/${run.id}`);
    expect(
      await screen.findByRole("button", { name: "Resume checking" }, SLOW),
    ).toBeVisible();
    expect(
      screen.getByRole("heading", { name: "This check is paused" }),
    ).toBeVisible();
    expect(upstream.calls).toHaveLength(0);
  });
});
