import { describe, expect, it } from "vitest";
import { answerProblem } from "./answers.ts";

describe("answerProblem", () => {
  it("passes a load where every answer was a 2xx", () => {
    expect(
      answerProblem({
        statuses: { "200": 5000, "204": 3 },
        errors: 0,
        timeouts: 0,
      }),
    ).toBeUndefined();
  });

  it("names every status that is not a 2xx, with its count", () => {
    expect(
      answerProblem({
        statuses: { "200": 5000, "429": 12, "502": 1 },
        errors: 0,
        timeouts: 0,
      }),
    ).toBe("13 answers not 2xx (429: 12, 502: 1)");
  });

  it("counts connection errors and time-outs", () => {
    expect(
      answerProblem({ statuses: { "200": 10 }, errors: 3, timeouts: 2 }),
    ).toBe("3 connection errors (2 time-outs)");
  });

  it("fails a load that got no answers", () => {
    expect(answerProblem({ statuses: {}, errors: 0, timeouts: 0 })).toBe(
      "no answers at all",
    );
  });
});
