// A webhook's secret, shown once after it is added or rotated: the receiver checks each
// delivery's signature with it, and VICS keeps no way to show it again. A copy button, and,
// after a rotation, until when the old secret still signs. It takes focus when it appears.
import { useEffect, useId, useRef, useState } from "react";
import type { Webhook } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";

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
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<"yes" | "no">();
  const { webhook, secret, rotated } = shown;

  useEffect(() => {
    box.current?.focus();
  }, [shown]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }

  return (
    <div
      ref={box}
      className="notice notice--success"
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      role="region"
    >
      <h3 id={`${id}-title`} className="notice__title heading-s">
        {rotated ? "New secret" : "Secret"} for {webhook.description}
      </h3>
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
      <label className="label" htmlFor={`${id}-secret`}>
        Secret
      </label>
      <input
        id={`${id}-secret`}
        className="input input--full one-time-link__input"
        readOnly
        value={secret}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="button-group">
        <button type="button" className="button" onClick={() => void copy()}>
          Copy the secret
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={onDone}
        >
          Done
        </button>
      </div>
      <p className="one-time-link__copied" role="status">
        {copied === "yes"
          ? "Secret copied."
          : copied === "no"
            ? "The browser did not let VICS copy it: select the secret and copy it yourself."
            : ""}
      </p>
    </div>
  );
}
