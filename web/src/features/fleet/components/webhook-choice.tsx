// The team's webhooks a fleet's alerts can go to, each ticked or not; one failing is marked so.
// An admin adds them: with none yet, the page says so.
import type { FleetAlertRuleSchema } from "@vics/shared";
import type { z } from "zod";
import { CheckboxGroup } from "./checkbox-group.tsx";

type WebhookChoices = z.infer<typeof FleetAlertRuleSchema>["webhooks"];

interface WebhookChoiceProps {
  id: string;
  webhooks: WebhookChoices;
  chosen: ReadonlySet<number>;
  onChange: (id: number, on: boolean) => void;
  error?: string;
}

export function WebhookChoice({
  id,
  webhooks,
  chosen,
  onChange,
  error,
}: WebhookChoiceProps) {
  if (webhooks.length === 0)
    return (
      <p>
        Your team has no webhooks yet. An admin adds them, on the admin’s Alerts
        page; then they can be chosen here.
      </p>
    );
  const failing = webhooks.some((webhook) => webhook.failing);
  return (
    <CheckboxGroup
      id={id}
      legend="Send this fleet’s alerts to these webhooks"
      hint={`Each alert is posted to every webhook ticked.${
        failing
          ? " One marked failing ran out of retries lately: an admin can see why, and send its alerts again."
          : ""
      }`}
      error={error}
      options={webhooks.map((webhook) => ({
        value: webhook.id,
        label: (
          <>
            {webhook.description}
            {webhook.failing && (
              <>
                {" "}
                <strong className="tag tag--failing">Failing</strong>
              </>
            )}
          </>
        ),
      }))}
      chosen={chosen}
      onChange={onChange}
    />
  );
}
