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
});
