import { renderHook } from "@testing-library/react";
import type { UseQueryResult } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { useFirstAnswers } from "./use-first-answers.ts";

const query = (isPending: boolean, failureCount = 0) =>
  ({ isPending, failureCount }) as UseQueryResult<unknown>;

describe("useFirstAnswers", () => {
  it("waits for every query's first answer, a failure counting as one", () => {
    const { result, rerender } = renderHook(
      ({ queries }) => useFirstAnswers(queries),
      { initialProps: { queries: [query(false), query(true)] } },
    );
    expect(result.current).toBe(false);
    rerender({ queries: [query(false), query(true, 1)] });
    expect(result.current).toBe(true);
  });

  it("stays true when a section's refetch makes a failed query pending again", () => {
    const { result, rerender } = renderHook(
      ({ queries }) => useFirstAnswers(queries),
      { initialProps: { queries: [query(false)] } },
    );
    expect(result.current).toBe(true);
    rerender({ queries: [query(true)] });
    expect(result.current).toBe(true);
  });
});
