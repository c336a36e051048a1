// The one engine suite left in the web (issue 36): the engine through the web's API client
// (apiFleetClient) and msw, the path a user's run takes. An answer that breaks the contract
// must reach the engine as the same failure as from fleet's own HTTP client; the suite is
// @vics/fleet's (fleet/src/testing/run-contract.ts), which fleet runs with its own client.
import { describeRunContract } from "@vics/fleet/testing/run-contract";
import { policyFixture } from "../../../../testing/fixtures.ts";
import { startEngine } from "../../testing/engine-run.ts";
import { fakeUpstream } from "../../testing/upstream.ts";

describeRunContract({
  policy: () => policyFixture(),
  fakeUpstream,
  // The web's engine asks through apiFleetClient, which msw's fake upstream answers.
  startEngine: (_upstream, options) => startEngine(options),
});
