import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RunProgressView } from "./run-progress-view.tsx";

const noop = () => undefined;

describe("the run's progress while the service refuses a batch", () => {
  it("says what the run is doing while it finds the vehicle the service refuses", () => {
    const message =
      "The service refused a batch of 1,000 vehicles. Finding which vehicle it refuses: 500 at a time";
    render(
      <RunProgressView
        progress={{
          phase: "running",
          total: 1502,
          done: 1000,
          notChecked: 0,
          message,
        }}
        paused={false}
        onPause={noop}
        onResume={noop}
        onStop={noop}
      />,
    );
    expect(screen.getByText(`${message}.`)).toBeVisible();
  });
});
