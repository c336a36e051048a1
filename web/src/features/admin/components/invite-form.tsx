// Inviting a user: email, name and role. The account exists at once; the link that sets its
// password is shown once, for the admin to send.
import { useId, useState, type FormEvent } from "react";
import {
  InviteRequestSchema,
  ROLES,
  ROLE_WORDS,
  type Role,
} from "@vics/shared";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { TextField } from "../../../components/text-field.tsx";
import {
  firstErrorEach,
  useFormErrors,
} from "../../../components/use-form-errors.ts";
import { ROLE_NAMES } from "../../../lib/roles.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import { useInviteUserMutation, type OneTimeLink } from "../api/users-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";
import { BusyButton } from "../../../components/busy-button.tsx";

const IDS = { email: "invite-email", name: "invite-name", role: "invite-role" };

export function InviteForm({
  onInvited,
}: {
  onInvited: (link: OneTimeLink) => void;
}) {
  const me = useSessionUser();
  const form = useFormErrors();
  const radios = useId();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role | "">("");
  const invite = useInviteUserMutation();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (invite.isPending) return;
    const parsed = InviteRequestSchema.safeParse({
      email,
      name,
      role: role === "" ? undefined : role,
    });
    if (!parsed.success) {
      const errors = parsed.error.issues.map((issue) => {
        const field = String(issue.path[0]);
        return field === "role"
          ? { fieldId: IDS.role, message: "Choose a role" }
          : field === "name"
            ? {
                fieldId: IDS.name,
                message: "Enter a name of 200 characters or fewer",
              }
            : {
                fieldId: IDS.email,
                message:
                  email.trim() === ""
                    ? "Enter an email address"
                    : issue.message,
              };
      });
      // One message a field, in the form's order.
      const order = [IDS.email, IDS.name, IDS.role];
      form.show(firstErrorEach(order, errors));
      return;
    }
    try {
      const link = await invite.mutateAsync(parsed.data);
      form.clear();
      setEmail("");
      setName("");
      setRole("");
      onInvited(link);
    } catch (error) {
      form.show([
        { fieldId: IDS.email, message: adminProblemWords(error, me?.role) },
      ]);
    }
  }

  const roleError = form.errorFor(IDS.role);
  return (
    <section aria-labelledby="invite-heading" className="invite">
      <h2 id="invite-heading" className="heading-m">
        Invite a user
      </h2>
      {form.errors.length > 0 && (
        <ErrorSummary errors={form.errors} attempt={form.attempt} />
      )}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          id={IDS.email}
          label="Email address"
          type="email"
          autoComplete="off"
          spellCheck={false}
          value={email}
          onChange={setEmail}
          error={form.errorFor(IDS.email)}
        />
        <TextField
          id={IDS.name}
          label="Name (optional)"
          autoComplete="off"
          value={name}
          onChange={setName}
          error={form.errorFor(IDS.name)}
        />
        <div className={`form-group${roleError ? " form-group--error" : ""}`}>
          <fieldset
            className="fieldset"
            aria-describedby={roleError ? `${radios}-error` : undefined}
          >
            <legend className="label">Role</legend>
            {roleError && (
              <p id={`${radios}-error`} className="error-message">
                <span className="visually-hidden">Error:</span> {roleError}
              </p>
            )}
            <div className="radios">
              {ROLES.map((each, index) => (
                <div key={each} className="radios__item">
                  <input
                    // The error summary's link goes to the first choice.
                    id={index === 0 ? IDS.role : `${IDS.role}-${each}`}
                    type="radio"
                    name="invite-role"
                    value={each}
                    checked={role === each}
                    onChange={() => setRole(each)}
                    aria-describedby={`${radios}-${each}-hint`}
                  />
                  <div>
                    <label
                      htmlFor={index === 0 ? IDS.role : `${IDS.role}-${each}`}
                    >
                      {ROLE_NAMES[each]}
                    </label>
                    <div id={`${radios}-${each}-hint`} className="hint">
                      {capitalise(ROLE_WORDS[each])}
                    </div>
                  </div>
                </div>
              ))}
            </div>
          </fieldset>
        </div>
        <BusyButton
          busy={invite.isPending}
          busyLabel="Creating the invitation…"
        >
          Create invitation link
        </BusyButton>
      </form>
    </section>
  );
}

function capitalise(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
