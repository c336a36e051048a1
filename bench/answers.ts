// A load figure counts only if every answer was a 2xx: a 429 (the rate limit), a 5xx or a
// dropped connection means the scenario measured something else, so it fails, loudly.

export interface Answers {
  /** Answers by HTTP status, e.g. { "200": 51234 }. */
  statuses: Record<string, number>;
  /** Connection errors, time-outs included. */
  errors: number;
  timeouts: number;
}

/** What went wrong, in one line, or undefined when every request had a 2xx answer. */
export function answerProblem(answers: Answers): string | undefined {
  const bad = Object.entries(answers.statuses).filter(
    ([status, count]) => !/^2\d\d$/.test(status) && count > 0,
  );
  const parts: string[] = [];
  if (bad.length > 0) {
    const total = bad.reduce((sum, [, count]) => sum + count, 0);
    const each = bad.map(([status, count]) => `${status}: ${count}`);
    parts.push(`${total} answers not 2xx (${each.join(", ")})`);
  }
  if (answers.errors > 0)
    parts.push(
      `${answers.errors} connection errors (${answers.timeouts} time-outs)`,
    );
  const total = Object.values(answers.statuses).reduce((a, b) => a + b, 0);
  if (total === 0 && answers.errors === 0) parts.push("no answers at all");
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** A scenario whose answers were not all 2xx: its figure is dropped and the bench exits 1. */
export class ScenarioFailure extends Error {
  constructor(scenario: string, problem: string) {
    super(`${scenario}: ${problem}`);
    this.name = "ScenarioFailure";
  }
}
