// The engine does not trust an answer that breaks the contract, through fleet's own HTTP client
// (the fake upstream's `client`). The suite is fleet/src/testing/run-contract.ts; the web runs
// it too, through its own API client (web/src/features/fleet/lib/engine/).
import { policyFixture } from "../testing/answers.ts";
import { startEngine } from "../testing/engine-run.ts";
import { fakeUpstream } from "../testing/fake-upstream.ts";
import { describeRunContract } from "../testing/run-contract.ts";

describeRunContract({
  policy: () => policyFixture(),
  fakeUpstream,
  startEngine: (upstream, options) =>
    startEngine({ ...options, client: upstream.client }),
});
