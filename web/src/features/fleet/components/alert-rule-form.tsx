// The alert rule's form: which kinds alert, at which "ending" thresholds, the addresses and
// which kinds they get at once, and the team's webhooks. Checked here first, so a mistyped
// address is named at its field; the proxy's refusal is shown in its words.
import { useState, type FormEvent } from "react";
import {
  ALERT_KINDS,
  ENDING_THRESHOLDS,
  isApiError,
  type AlertRule,
  type FleetAlertRuleSchema,
} from "@vics/shared";
import type { z } from "zod";
import { ActionNotes } from "../../../components/action-notes.tsx";
import { BusyButton } from "../../../components/busy-button.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { useFormErrors } from "../../../components/use-form-errors.ts";
import { useSaveAlertRuleMutation } from "../api/alert-rules-api.ts";
import {
  draftOf,
  ruleOf,
  type AlertRuleDraft,
  type DraftField,
} from "../lib/alert-rule-draft.ts";
import { KIND_WORDS, thresholdWords } from "../lib/alert-rule-words.ts";
import { CheckboxGroup } from "./checkbox-group.tsx";
import { EmailAddressesField } from "./email-addresses-field.tsx";
import { WebhookChoice } from "./webhook-choice.tsx";

type FleetAlertRule = z.infer<typeof FleetAlertRuleSchema>;

const IDS = {
  kinds: "alert-rule-kinds",
  endingDays: "alert-rule-ending",
  emails: "alert-rule-emails",
  instantKinds: "alert-rule-instant",
  webhooks: "alert-rule-webhooks",
} as const;

const FIELD_IDS: Record<DraftField, string> = {
  emails: IDS.emails,
  webhooks: IDS.webhooks,
};

type Choice = "kinds" | "endingDays" | "instantKinds" | "webhookIds";

function toggled<T>(set: ReadonlySet<T>, value: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
}

interface AlertRuleFormProps {
  fleetId: string;
  /** The rule as first shown; the form keeps its own from then on. */
  rule: AlertRule;
  webhooks: FleetAlertRule["webhooks"];
}

export function AlertRuleForm({ fleetId, rule, webhooks }: AlertRuleFormProps) {
  const form = useFormErrors();
  const [draft, setDraft] = useState(() => draftOf(rule));
  const [saved, setSaved] = useState("");
  const [problem, setProblem] = useState<string>();
  const save = useSaveAlertRuleMutation(fleetId, {
    onSuccess: (savedRule) => {
      setDraft(draftOf(savedRule));
      setSaved("Alert rule saved.");
    },
    onError: (error) =>
      setProblem(
        isApiError(error)
          ? error.detail
          : "VICS could not save the alert rule. Try again.",
      ),
  });

  function change(next: Partial<AlertRuleDraft>) {
    setDraft((previous) => ({ ...previous, ...next }));
    setSaved("");
  }
  /** From the draft as it is then, so two toggles in one tick both count. */
  const toggle =
    <T,>(choice: Choice) =>
    (value: T, on: boolean) => {
      setDraft((previous) => ({
        ...previous,
        [choice]: toggled(previous[choice] as ReadonlySet<T>, value, on),
      }));
      setSaved("");
    };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setSaved("");
    setProblem(undefined);
    const result = ruleOf(
      draft,
      webhooks.map((webhook) => webhook.id),
    );
    if (!result.ok) {
      form.show(
        result.problems.map(({ field, message }) => ({
          fieldId: FIELD_IDS[field],
          message,
        })),
      );
      return;
    }
    form.clear();
    save.mutate(result.rule);
  }

  const alerting = ALERT_KINDS.filter((kind) => draft.kinds.has(kind));
  return (
    <form noValidate onSubmit={submit}>
      {form.errors.length > 0 && (
        <ErrorSummary errors={form.errors} attempt={form.attempt} />
      )}
      <h2 className="heading-m">Which alerts go out</h2>
      <CheckboxGroup
        id={IDS.kinds}
        legend="Send these alerts by email and webhook"
        hint="Everyone with the fleet role sees every alert in Notifications, whatever is ticked here. Untick them all to send none."
        options={ALERT_KINDS.map((kind) => ({
          value: kind,
          label: KIND_WORDS[kind],
        }))}
        chosen={draft.kinds}
        onChange={toggle("kinds")}
      />
      <CheckboxGroup
        id={IDS.endingDays}
        legend="When insurance, MOT or road tax is ending, alert"
        hint={`Only while “${KIND_WORDS.ending}” is ticked above.`}
        options={ENDING_THRESHOLDS.map((days) => ({
          value: days,
          label: thresholdWords(days),
        }))}
        chosen={draft.endingDays}
        onChange={toggle("endingDays")}
      />

      <h2 className="heading-m">Email</h2>
      <EmailAddressesField
        id={IDS.emails}
        value={draft.emails}
        onChange={(emails) => change({ emails })}
        error={form.errorFor(IDS.emails)}
      />
      {alerting.length === 0 ? (
        <p>No alerts are ticked to go out, so none are emailed.</p>
      ) : (
        <CheckboxGroup
          id={IDS.instantKinds}
          legend="Email these at once"
          hint="Those not ticked wait for the daily digest. Unless changed, the alerts about a vehicle that may not be driven go at once."
          options={alerting.map((kind) => ({
            value: kind,
            label: KIND_WORDS[kind],
          }))}
          chosen={draft.instantKinds}
          onChange={toggle("instantKinds")}
        />
      )}

      <h2 className="heading-m">Webhooks</h2>
      <WebhookChoice
        id={IDS.webhooks}
        webhooks={webhooks}
        chosen={draft.webhookIds}
        onChange={toggle("webhookIds")}
        error={form.errorFor(IDS.webhooks)}
      />

      <ActionNotes
        problemTitle="The alert rule was not saved"
        problem={problem}
        done={saved}
      />
      <BusyButton busy={save.isPending} busyLabel="Saving…">
        Save the alert rule
      </BusyButton>
    </form>
  );
}
