import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { RegistrationForm } from "./registration-form.tsx";

describe("RegistrationForm", () => {
  it("takes the button label and reports the normalised registration", async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(
      <RegistrationForm submitLabel="Check compliance" onSubmit={onSubmit} />,
    );
    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      " ab12-cde ",
    );
    await user.click(screen.getByRole("button", { name: "Check compliance" }));
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith("AB12CDE");
  });

  it("submits with the Enter key", async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<RegistrationForm submitLabel="Go" onSubmit={onSubmit} />);
    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      "LP08SED{Enter}",
    );
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith("LP08SED");
  });

  it("clears the error once a valid registration is submitted", async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(
      <RegistrationForm
        submitLabel="Go"
        onSubmit={onSubmit}
        defaultValue="AB"
        initialError="Enter a registration in a UK format, like AB12 CDE"
      />,
    );
    const input = screen.getByRole("textbox", { name: "Registration number" });
    expect(input).toBeInvalid();
    await user.type(input, "12CDE");
    await user.click(screen.getByRole("button", { name: "Go" }));
    expect(input).not.toBeInvalid();
    expect(screen.queryByText(/Error:/)).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledWith("AB12CDE");
  });

  it("shows a new registration given from outside", () => {
    const { rerender } = render(
      <RegistrationForm
        submitLabel="Go"
        onSubmit={vi.fn()}
        defaultValue="AB12 CDE"
      />,
    );
    rerender(
      <RegistrationForm
        submitLabel="Go"
        onSubmit={vi.fn()}
        defaultValue="LP08 SED"
      />,
    );
    expect(
      screen.getByRole("textbox", { name: "Registration number" }),
    ).toHaveValue("LP08 SED");
  });

  it("offers the O/0 and I/1 lookalike of a mistyped plate, and checks it on a click", async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<RegistrationForm submitLabel="Go" onSubmit={onSubmit} />);
    const input = screen.getByRole("textbox", { name: "Registration number" });
    await user.type(input, "AB1O CDE{Enter}");
    expect(onSubmit).not.toHaveBeenCalled();
    expect(
      screen.getByText(/Enter a registration in a UK format/),
    ).toBeVisible();
    await user.click(screen.getByRole("button", { name: "AB10 CDE" }));
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith("AB10CDE");
    expect(input).toHaveValue("AB10 CDE");
    expect(input).not.toBeInvalid();
    // The suggestion goes once chosen: focus stays in the form, not back at the page top.
    expect(input).toHaveFocus();
  });

  it("offers no lookalike when no swap gives a valid plate", async () => {
    const user = userEvent.setup();
    render(<RegistrationForm submitLabel="Go" onSubmit={vi.fn()} />);
    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      "ABCDEFG{Enter}",
    );
    expect(screen.queryByText("Did you mean:")).not.toBeInTheDocument();
  });
});
