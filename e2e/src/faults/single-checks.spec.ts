// Fault journeys: the single insurance and compliance checks under every upstream fault. The
// proxy turns each into its own 502 or 504 (decision 017); the page says what happened in words,
// gives the proxy's request id as the reference, and once the upstream answers again, Try again
// (insurance) or checking the same vehicle again (compliance) shows the answer.
import type { Locator } from "@playwright/test";
import type { RecordedExchange } from "../fixtures.ts";
import { CompliancePage } from "../pages/compliance-page.ts";
import { InsurancePage } from "../pages/insurance-page.ts";
import {
  FAULTS,
  PROXY_ANSWERS,
  SHOWN_ERRORS,
  platesWith,
  type Fault,
} from "./fault-cases.ts";
import { expect, test } from "./fault-fixtures.ts";

/** The browser's exchanges with one API path, in order. */
function exchangesWith(traffic: RecordedExchange[], path: string) {
  return traffic.filter((exchange) => new URL(exchange.url).pathname === path);
}

/** Two letters of its own per fault and check, so no two tests ask about the same plate. */
function prefixFor(fault: Fault, check: "insurance" | "compliance"): string {
  const first = "BCDFGHJKLMNPRSTVWXY"[FAULTS.indexOf(fault)] ?? "Z";
  return `${first}${check === "insurance" ? "I" : "C"}`;
}

/** The problem documents of `exchanges` are the proxy's answer to `fault`, and the last one's id is shown. */
async function expectProxyAnswer(
  exchanges: RecordedExchange[],
  fault: Fault,
  reference: Locator,
) {
  const answer = PROXY_ANSWERS[fault];
  for (const exchange of exchanges) {
    expect(exchange.status, fault).toBe(answer.status);
    expect(JSON.parse(exchange.responseBody), fault).toMatchObject({
      status: answer.status,
      code: answer.code,
      detail: expect.stringMatching(answer.detail),
    });
  }
  const last = exchanges.at(-1);
  const { requestId } = JSON.parse(last?.responseBody ?? "{}") as {
    requestId?: string;
  };
  expect(requestId, "the proxy's request id").toMatch(/\S{8,}/);
  await expect(reference).toHaveText(requestId ?? "");
}

/** A 502 is retried once by itself before the panel shows; a 504 has already waited its time. */
const attemptsBeforePanel = (fault: Fault) =>
  PROXY_ANSWERS[fault].status === 502 ? 2 : 1;

/**
 * The error panel after `fault`: the words for the proxy's answer, once the app has made its
 * attempts, each answered by the proxy, and the last answer's request id as the reference.
 */
async function expectFaultShown(
  panel: Locator,
  traffic: RecordedExchange[],
  path: string,
  fault: Fault,
) {
  const shown = SHOWN_ERRORS[PROXY_ANSWERS[fault].code];
  await expect(panel.getByRole("heading")).toHaveText(shown.title);
  await expect(panel).toContainText(shown.message);
  await expect
    .poll(() => exchangesWith(traffic, path).length)
    .toBe(attemptsBeforePanel(fault));
  await expectProxyAnswer(
    exchangesWith(traffic, path),
    fault,
    panel.locator(".error-panel__reference code"),
  );
}

for (const fault of FAULTS) {
  const answer = PROXY_ANSWERS[fault];

  test(`insurance check, upstream "${fault}": the proxy's ${answer.status} in words with a reference, then Try again answers`, async ({
    page,
    faults,
    traffic,
  }) => {
    const [plate = ""] = platesWith(
      "insured",
      1,
      prefixFor(fault, "insurance"),
    );
    const path = `/api/v1/vehicle/${plate}/insurance`;
    await faults.upstream.use(fault);

    const insurance = new InsurancePage(page);
    await insurance.open();
    await insurance.check(plate);

    await expectFaultShown(insurance.errorPanel, traffic, path, fault);
    await expect(insurance.tryAgainButton).toBeVisible();
    // The fault was the upstream's doing: it was asked (unless it refused the connection).
    if (fault !== "refuse")
      expect(
        faults.upstream.calls
          .filter((call) => call.path.endsWith(`/${plate}/insurance`))
          .map((call) => call.behaviour),
      ).toContain(fault);

    await faults.upstream.use("answer");
    await insurance.tryAgainButton.click();
    await expect(insurance.status).toHaveText("Insured");
    await expect(insurance.errorPanel).toBeHidden();
    await expect(insurance.detail("Policy number")).toHaveText(
      `FAULT-${plate}`,
    );
  });

  test(`compliance check, upstream "${fault}": the proxy's ${answer.status} in words with a reference, then checking again answers`, async ({
    page,
    faults,
    traffic,
  }) => {
    const [plate = ""] = platesWith(
      "insured",
      1,
      prefixFor(fault, "compliance"),
    );
    const path = `/api/v1/compliance/${plate}`;
    await faults.upstream.use(fault);

    const compliance = new CompliancePage(page);
    await compliance.open();
    await compliance.check(plate);

    await expectFaultShown(compliance.errorPanel, traffic, path, fault);

    // The way forward without the panel's button: the form, with the same vehicle.
    await faults.upstream.use("answer");
    await compliance.check(plate);
    await expect(compliance.verdict).toHaveText("Compliant");
    await expect(compliance.errorPanel).toBeHidden();
    await expect(compliance.checks.getByRole("listitem")).toHaveCount(4);
  });
}

test('insurance check, the service\'s own 500 problem ("contract-500"): passed on, "had a problem", then Try again answers', async ({
  page,
  faults,
  traffic,
}) => {
  const [plate = ""] = platesWith("insured", 1, "ZI");
  const path = `/api/v1/vehicle/${plate}/insurance`;
  await faults.upstream.use("contract-500");

  const insurance = new InsurancePage(page);
  await page.goto(`/vehicle/${plate}`);
  await expect(insurance.errorPanel.getByRole("heading")).toHaveText(
    "The vehicle service had a problem",
  );
  await expect(insurance.errorPanel).toContainText(
    "It could not complete this check. Try again in a moment.",
  );
  // A 500 that is a problem document is the service speaking: the proxy passes it on.
  await expect
    .poll(() => exchangesWith(traffic, path).map((exchange) => exchange.status))
    .toEqual([500, 500]);
  const last = exchangesWith(traffic, path).at(-1);
  await expect(
    insurance.errorPanel.locator(".error-panel__reference code"),
  ).toHaveText(JSON.parse(last?.responseBody ?? "{}").requestId);

  await faults.upstream.use("answer");
  await insurance.tryAgainButton.click();
  await expect(insurance.status).toHaveText("Insured");
});
