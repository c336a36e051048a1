import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { RegistrationForm } from "./registration-form.tsx";

function renderForm(
  props: Partial<Parameters<typeof RegistrationForm>[0]> = {},
) {
  const onSubmit = vi.fn();
  const onInvalid = vi.fn();
  const user = userEvent.setup();
  const view = render(
    <RegistrationForm
      inputId="registration"
      submitLabel="Go"
      onSubmit={onSubmit}
      onInvalid={onInvalid}
      {...props}
    />,
  );
  const input = screen.getByRole("textbox", { name: "Registration number" });
  return { ...view, onSubmit, onInvalid, user, input };
}

describe("RegistrationForm", () => {
  it("takes the button label and reports the normalised registration", async () => {
    const { user, input, onSubmit, onInvalid } = renderForm({
      submitLabel: "Check compliance",
    });
    await user.type(input, " ab12-cde ");
    await user.click(screen.getByRole("button", { name: "Check compliance" }));
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith("AB12CDE");
    expect(onInvalid).not.toHaveBeenCalled();
  });

  it("submits with the Enter key", async () => {
    const { user, input, onSubmit } = renderForm();
    await user.type(input, "LP08SED{Enter}");
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith("LP08SED");
  });

  it("reports an invalid registration with its reason, and submits nothing", async () => {
    const { user, input, onSubmit, onInvalid } = renderForm();
    await user.type(input, "AB12 CD!{Enter}");
    expect(onInvalid).toHaveBeenCalledExactlyOnceWith(
      "Registration must only include letters A to Z and numbers 0 to 9",
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows the error it is given on the field, GOV.UK style", () => {
    const { input } = renderForm({
      defaultValue: "AB",
      error: "Enter a registration in a UK format, like AB12 CDE",
    });
    expect(input).toHaveAttribute("id", "registration");
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription(
      "For example, AB12 CDE Error: Enter a registration in a UK format, like AB12 CDE",
    );
  });

  it("shows a new registration given from outside", () => {
    const { rerender } = renderForm({ defaultValue: "AB12 CDE" });
    rerender(
      <RegistrationForm
        inputId="registration"
        submitLabel="Go"
        onSubmit={vi.fn()}
        onInvalid={vi.fn()}
        defaultValue="LP08 SED"
      />,
    );
    expect(
      screen.getByRole("textbox", { name: "Registration number" }),
    ).toHaveValue("LP08 SED");
  });

  it("offers the O/0 and I/1 lookalike of a mistyped plate, and checks it on a click", async () => {
    const { user, input, onSubmit } = renderForm({
      defaultValue: "AB1O CDE",
      error: "Enter a registration in a UK format, like AB12 CDE",
    });
    await user.click(screen.getByRole("button", { name: "AB10 CDE" }));
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith("AB10CDE");
    expect(input).toHaveValue("AB10 CDE");
    // The suggestion goes once chosen: focus waits in the form for the answer.
    expect(input).toHaveFocus();
  });

  it("offers no lookalike when no swap gives a valid plate", () => {
    renderForm({
      defaultValue: "ABCDEFG",
      error: "Enter a registration in a UK format, like AB12 CDE",
    });
    expect(screen.queryByText("Did you mean:")).not.toBeInTheDocument();
  });
});
