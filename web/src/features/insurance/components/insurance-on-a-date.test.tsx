// "Check on a date", the data's freshness and "not yet on record" in the single insurance check
// (decision 041), through the app's real routes against msw's proxy.
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { http } from "msw";
import { PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import {
  daysFromToday,
  insuranceFixture,
  problemFixture,
} from "../../../testing/fixtures.ts";
import { json } from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { server } from "../../../testing/server.ts";

/** Serves the insurance check, noting the `date` each request asked about. */
function serveDated(answer: (date: string | null) => Response) {
  const asked: (string | null)[] = [];
  server.use(
    http.get(PROXY_PREFIX + ROUTE_PATTERNS.insurance, ({ request }) => {
      const date = new URL(request.url).searchParams.get("date");
      asked.push(date);
      return answer(date);
    }),
  );
  return asked;
}

const descriptionOf = (within: HTMLElement, term: string) =>
  Array.from(within.querySelectorAll("dt")).find(
    (dt) => dt.textContent === term,
  )?.nextElementSibling?.textContent ?? "";

afterEach(() => vi.restoreAllMocks());

describe("check on a date", () => {
  it("asks about the date chosen, says so, and keeps a record to print with its reference", async () => {
    const asked = serveDated((date) =>
      json(
        insuranceFixture({
          insured: date === null,
          policy: null,
          dataAsOf: { insurance: "2026-11-24T06:00:00.000Z" },
          ...(date && { asOf: { date, knownAt: new Date().toISOString() } }),
        }),
        200,
        { "X-Request-Id": "req-dated-0001" },
      ),
    );
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    const { user } = renderRoute("/vehicle/AB12CDE");
    await screen.findByRole("heading", { name: "Insured" });
    expect(screen.getByText(/Insurance data as of/)).toHaveTextContent(
      "Insurance data as of 24 November 2026 at 06:00",
    );
    expect(screen.queryByText("Record of this check")).not.toBeInTheDocument();

    await user.click(screen.getByText("Check on a date"));
    const day = daysFromToday(-30);
    await user.type(screen.getByLabelText(/^Date, for example/), day);
    await user.click(
      screen.getByRole("button", { name: "Check on this date" }),
    );

    const heading = await screen.findByRole("heading", {
      name: /^Not insured on /,
    });
    expect(asked).toEqual([null, day]);
    expect(heading).toHaveFocus();
    expect(document.title).toMatch(
      /^AB12 CDE: Not insured on .* – Insurance check – VICS$/,
    );
    const record = screen
      .getByRole("heading", { name: "Record of this check" })
      .closest("section") as HTMLElement;
    expect(descriptionOf(record, "Vehicle")).toBe("AB12 CDE, Blue Ford Focus");
    expect(descriptionOf(record, "Answer")).toMatch(/^Not insured on /);
    expect(descriptionOf(record, "Insurance data as of")).toBe(
      "24 November 2026 at 06:00",
    );
    expect(descriptionOf(record, "Reference")).toBe("req-dated-0001");
    await user.click(
      within(record).getByRole("button", { name: "Print this record" }),
    );
    expect(print).toHaveBeenCalledTimes(1);

    await user.click(
      screen.getByRole("button", { name: "Check today instead" }),
    );
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeInTheDocument();
  });

  it("refuses a date after today before asking anything", async () => {
    const asked = serveDated(() => json(insuranceFixture()));
    const { user } = renderRoute("/vehicle/AB12CDE");
    await screen.findByRole("heading", { name: "Insured" });
    await user.click(screen.getByText("Check on a date"));
    await user.type(
      screen.getByLabelText(/^Date, for example/),
      daysFromToday(1),
    );
    await user.click(
      screen.getByRole("button", { name: "Check on this date" }),
    );
    expect(
      screen.getByText(/The date must be today, .* or a day before it\./),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Date, for example/)).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(asked).toEqual([null]);
  });

  it.each(["2026-02-30", "2026-13-45", "2026-2-3"])(
    // 2026-13-45 once threw in the page (an invalid Date has no toISOString).
    "says %s in the address is not a date, and checks today",
    async (text) => {
      const asked = serveDated(() => json(insuranceFixture()));
      renderRoute(`/vehicle/AB12CDE?date=${text}`);
      expect(
        await screen.findByText(
          `"${text}" is not a date. Choose one from the calendar.`,
        ),
      ).toBeInTheDocument();
      // The check is today's: the text never reaches the service.
      await screen.findByRole("heading", { name: "Insured" });
      expect(asked).toEqual([null]);
    },
  );

  it("says in words a date the service will not answer for, from the address", async () => {
    serveDated(() =>
      json(
        {
          ...problemFixture("DATE_OUT_OF_RANGE", 400),
          detail:
            "date 2019-01-01 is before VICS's records begin, on 3 March 2019 (2019-03-03).",
        },
        400,
      ),
    );
    renderRoute("/vehicle/AB12CDE?date=2019-01-01");
    expect(
      await screen.findByRole("heading", {
        name: "VICS cannot answer for that date",
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/before VICS's records begin, on 3 March 2019/),
    ).toBeVisible();
  });

  it("keeps the date for the next vehicle checked", async () => {
    const day = daysFromToday(-3);
    const asked = serveDated(() => json(insuranceFixture()));
    const { user } = renderRoute(`/vehicle/AB12CDE?date=${day}`);
    await screen.findByRole("heading", { name: /^Insured on / });
    const input = screen.getByLabelText("Registration number");
    await user.clear(input);
    await user.type(input, "CD34 EFG{Enter}");
    await screen.findByRole("heading", { name: /^Insured on / });
    expect(asked).toEqual([day, day]);
  });
});

describe("a new vehicle with no policy on record yet", () => {
  /** A vehicle first registered `daysAgo`, with no policy ever on record. */
  const serveNewVehicle = (daysAgo: number) =>
    serveDated(() =>
      json(
        insuranceFixture({
          insured: false,
          policy: null,
          vehicle: {
            make: "Kia",
            model: "Niro",
            year: 2026,
            color: "White",
            firstRegistered: daysFromToday(-daysAgo),
          },
        }),
      ),
    );

  it("is not yet on record, with the insurer's deadline, rather than not insured", async () => {
    serveNewVehicle(5);
    renderRoute("/vehicle/AB12CDE");
    const heading = await screen.findByRole("heading", {
      name: "Not yet on record",
    });
    expect(heading.querySelector('svg[data-status="warning"]')).not.toBeNull();
    expect(screen.getByText(/its insurer has until/)).toBeVisible();
  });

  it("is not insured once the 14 days have passed", async () => {
    serveNewVehicle(15);
    renderRoute("/vehicle/AB12CDE");
    expect(
      await screen.findByRole("heading", { name: "Not insured" }),
    ).toBeInTheDocument();
  });
});
