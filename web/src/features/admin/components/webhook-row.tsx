// One of the team's webhooks in the webhooks table: what it is for, its address, whether its
// deliveries are failing and why, until when a rotated-out secret still signs; and rotating its
// secret, or removing it (asked again first).
import { useState } from "react";
import type { Webhook } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";
import { InlineConfirm } from "./inline-confirm.tsx";

export type WebhookAction = "rotate" | "remove";

interface WebhookRowProps {
  webhook: Webhook;
  now: Date;
  busy: boolean;
  onAction: (webhook: Webhook, action: WebhookAction) => Promise<boolean>;
}

export function WebhookRow({ webhook, now, busy, onAction }: WebhookRowProps) {
  const [confirming, setConfirming] = useState(false);
  const hidden = (
    <>
      {" "}
      <span className="visually-hidden">{webhook.description}</span>
    </>
  );
  const oldSecret =
    webhook.previousSecretUntil !== null &&
    new Date(webhook.previousSecretUntil) > now
      ? webhook.previousSecretUntil
      : null;

  async function act(action: WebhookAction) {
    if (busy) return;
    if (await onAction(webhook, action)) setConfirming(false);
  }

  return (
    <tr>
      <th scope="row">
        {webhook.description}
        {webhook.allowPrivate && (
          <span className="hint alerts__detail">
            A private address is allowed
          </span>
        )}
      </th>
      <td>
        <span className="alerts__url">{webhook.url}</span>
      </td>
      <td>
        {webhook.failingSince ? (
          <>
            <strong className="tag tag--failing">Failing</strong>{" "}
            <span className="alerts__detail">
              since {formatDateTime(webhook.failingSince)}
            </span>
          </>
        ) : (
          "Working"
        )}
        {webhook.lastError && (
          <span className="hint alerts__detail">
            Last error: {webhook.lastError}
          </span>
        )}
      </td>
      <td>
        {oldSecret ? (
          <time dateTime={oldSecret}>{formatDateTime(oldSecret)}</time>
        ) : (
          <span className="hint">No old secret</span>
        )}
      </td>
      <td>
        {confirming ? (
          <InlineConfirm
            label={`Confirm removing ${webhook.description}`}
            question={`Remove ${webhook.description}? Fleets’ rules stop sending to it, and its waiting deliveries are dropped.`}
            busy={busy}
            onConfirm={() => void act("remove")}
            onCancel={() => setConfirming(false)}
          >
            Yes, remove{hidden}
          </InlineConfirm>
        ) : (
          <ul className="users__action-list">
            <li>
              <button
                type="button"
                className="link-button"
                aria-disabled={busy || undefined}
                onClick={() => void act("rotate")}
              >
                Rotate secret{hidden}
              </button>
            </li>
            <li>
              <button
                type="button"
                className="link-button"
                onClick={() => setConfirming(true)}
              >
                Remove{hidden}
              </button>
            </li>
          </ul>
        )}
      </td>
    </tr>
  );
}
