// Adding one of the team's webhooks: its address, what it is for, and whether a private or
// loopback address is allowed (refused unless ticked: no way into the internal network by
// mistake). Its secret comes back once, for the page to show.
import { useState, type FormEvent } from "react";
import { NewWebhookSchema } from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { TextField } from "../../../components/text-field.tsx";
import {
  firstErrorEach,
  useFormErrors,
} from "../../../components/use-form-errors.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import { useAddWebhookMutation } from "../api/webhooks-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";
import type { ShownSecret } from "./webhook-secret-notice.tsx";

const IDS = {
  url: "webhook-url",
  description: "webhook-description",
  allowPrivate: "webhook-allow-private",
};

export function NewWebhookForm({
  onAdded,
}: {
  onAdded: (shown: ShownSecret) => void;
}) {
  const me = useSessionUser();
  const form = useFormErrors();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [allowPrivate, setAllowPrivate] = useState(false);
  const add = useAddWebhookMutation();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (add.isPending) return;
    const parsed = NewWebhookSchema.safeParse({
      url: url.trim(),
      description,
      allowPrivate,
    });
    if (!parsed.success) {
      const order = [IDS.url, IDS.description];
      const errors = parsed.error.issues.map((issue) => ({
        fieldId: issue.path[0] === "description" ? IDS.description : IDS.url,
        message:
          issue.path[0] === "url" && url.trim() === ""
            ? "Enter the webhook’s address"
            : issue.message,
      }));
      // One message a field, in the form's order.
      form.show(firstErrorEach(order, errors));
      return;
    }
    try {
      const added = await add.mutateAsync(parsed.data);
      form.clear();
      setUrl("");
      setDescription("");
      setAllowPrivate(false);
      onAdded({ ...added, rotated: false });
    } catch (error) {
      // The proxy's refusals are about the address: private, loopback, not found...
      form.show([
        { fieldId: IDS.url, message: adminProblemWords(error, me?.role) },
      ]);
    }
  }

  return (
    <section aria-labelledby="new-webhook-heading">
      <h3 id="new-webhook-heading" className="heading-s">
        Add a webhook
      </h3>
      {form.errors.length > 0 && (
        <ErrorSummary errors={form.errors} attempt={form.attempt} />
      )}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          id={IDS.url}
          label="Address"
          hint="The receiver’s full https address, such as https://hooks.example.org/vics. Each alert is posted to it as signed JSON."
          type="url"
          autoComplete="off"
          spellCheck={false}
          value={url}
          onChange={setUrl}
          error={form.errorFor(IDS.url)}
        />
        <TextField
          id={IDS.description}
          label="What it is for"
          hint="Fleet managers choose webhooks by this, such as “Ops team chat”."
          width="medium"
          autoComplete="off"
          value={description}
          onChange={setDescription}
          error={form.errorFor(IDS.description)}
        />
        <div className="checkbox">
          <input
            id={IDS.allowPrivate}
            type="checkbox"
            className="checkbox__input"
            checked={allowPrivate}
            onChange={(event) => setAllowPrivate(event.target.checked)}
            aria-describedby={`${IDS.allowPrivate}-hint`}
          />
          <div>
            <label className="checkbox__label" htmlFor={IDS.allowPrivate}>
              Allow a private or loopback address
            </label>
            <div
              id={`${IDS.allowPrivate}-hint`}
              className="hint checkbox__hint"
            >
              <StatusIcon status="warning" className="alerts__warning-icon" />
              Only for a receiver inside your own network. Otherwise VICS
              refuses such addresses, so that a mistyped or hostile one cannot
              reach the services behind it.
            </div>
          </div>
        </div>
        <BusyButton busy={add.isPending} busyLabel="Adding…">
          Add the webhook
        </BusyButton>
      </form>
    </section>
  );
}
