// A webhook's secret, shown once after it is added or rotated: the receiver checks each
// delivery's signature with it, and VICS keeps no way to show it again. A copy button, and,
// after a rotation, until when the old secret still signs. It takes focus when it appears.
import type { Webhook } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";
import { ShowOnceNotice } from "./show-once-notice.tsx";

export interface ShownSecret {
  webhook: Webhook;
  secret: string;
  rotated: boolean;
}

interface WebhookSecretNoticeProps {
  shown: ShownSecret;
  onDone: () => void;
}

export function WebhookSecretNotice({
  shown,
  onDone,
}: WebhookSecretNoticeProps) {
  const { webhook, secret, rotated } = shown;
  return (
    <ShowOnceNotice
      showing={shown}
      title={`${rotated ? "New secret" : "Secret"} for ${webhook.description}`}
      headingLevel={3}
      label="Secret"
      value={secret}
      copyLabel="Copy the secret"
      onDone={onDone}
    >
      <p>
        The receiver checks each delivery’s signature with this secret (the
        Standard Webhooks way).
        {rotated &&
          webhook.previousSecretUntil &&
          ` The old secret signs too until ${formatDateTime(webhook.previousSecretUntil)} (UK time), so the receiver can move to the new one without missing an alert.`}
      </p>
      <p>
        <strong>Copy it now: VICS will not show it again.</strong>
      </p>
    </ShowOnceNotice>
  );
}
