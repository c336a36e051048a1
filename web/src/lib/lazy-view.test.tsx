// A view loaded on demand: loaded once, shown at once after that, and tried again after a
// failed load instead of remembering the failure.
import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { Component, type ReactNode } from "react";
import { lazyView, useLazyView } from "./lazy-view.ts";

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

let imports = 0;
const countedView = lazyView(async () => {
  imports++;
  return Greeting;
});
const CountedGreeting = countedView.View;

function CountedHost() {
  const ready = useLazyView(countedView);
  return ready ? <CountedGreeting name="Sam" /> : <p>Loading</p>;
}

let attempts = 0;
const flakyView = lazyView(async () => {
  attempts++;
  if (attempts === 1) throw new Error("chunk did not load");
  return Greeting;
});
const FlakyGreeting = flakyView.View;

function FlakyHost() {
  const ready = useLazyView(flakyView);
  return ready ? <FlakyGreeting name="Sam" /> : <p>Loading</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? (
      <p>Failed: {this.state.error.message}</p>
    ) : (
      this.props.children
    );
  }
}

describe("lazyView", () => {
  it("loads once however many ask, and once loaded renders at once", async () => {
    const first = render(<CountedHost />);
    expect(screen.getByText("Loading")).toBeInTheDocument();
    expect(await screen.findByText("Hello Sam")).toBeInTheDocument();
    first.unmount();

    // A second page that shows it: no loading state, no second import.
    render(<CountedHost />);
    expect(screen.getByText("Hello Sam")).toBeInTheDocument();
    expect(screen.queryByText("Loading")).toBeNull();
    expect(imports).toBe(1);
  });

  it("sends a failed load to the error boundary, and tries again next time", async () => {
    // React reports the error it hands to the boundary: expected here, and checked below.
    const reported = vi.mocked(console.error).mockImplementation(() => {});
    const failed = render(
      <Boundary>
        <FlakyHost />
      </Boundary>,
    );
    expect(
      await screen.findByText("Failed: chunk did not load"),
    ).toBeInTheDocument();
    expect(reported.mock.calls.flat().map(String).join(" ")).toContain(
      "chunk did not load",
    );
    failed.unmount();

    render(<FlakyHost />);
    expect(await screen.findByText("Hello Sam")).toBeInTheDocument();
    expect(attempts).toBe(2);
  });
});
