// On the alerts page: the team's webhooks, which each fleet's rule can send its alerts to.
// Listed with their state; added, their secret rotated or removed. A new secret is shown
// once, here, for the admin to give the receiver.
import { useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Webhook } from "@vics/shared";
import { useNow } from "../../../lib/use-now.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import {
  useRemoveWebhookMutation,
  useRotateWebhookSecretMutation,
  webhooksQueryOptions,
} from "../api/webhooks-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";
import { NewWebhookForm } from "./new-webhook-form.tsx";
import { WebhookRow, type WebhookAction } from "./webhook-row.tsx";
import {
  WebhookSecretNotice,
  type ShownSecret,
} from "./webhook-secret-notice.tsx";
import { ActionNotes } from "../../../components/action-notes.tsx";
import { QueryView } from "./query-view.tsx";

function WebhooksTable({
  webhooks,
  busy,
  onAction,
}: {
  webhooks: Webhook[];
  busy: boolean;
  onAction: (webhook: Webhook, action: WebhookAction) => Promise<boolean>;
}) {
  const now = useNow();
  if (webhooks.length === 0)
    return <p>No webhooks yet. Add one below for fleets to choose.</p>;
  return (
    <table className="data-table alerts__webhooks">
      <caption className="visually-hidden">The team’s webhooks</caption>
      <thead>
        <tr>
          <th scope="col">Description</th>
          <th scope="col">Address</th>
          <th scope="col">State</th>
          <th scope="col">Old secret valid until (UK)</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {webhooks.map((webhook) => (
          <WebhookRow
            key={webhook.id}
            webhook={webhook}
            now={now}
            busy={busy}
            onAction={onAction}
          />
        ))}
      </tbody>
    </table>
  );
}

export function WebhooksSection() {
  const me = useSessionUser();
  const webhooks = useQuery(webhooksQueryOptions());
  const [secret, setSecret] = useState<ShownSecret>();
  const [done, setDone] = useState("");
  const [problem, setProblem] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  const rotate = useRotateWebhookSecretMutation();
  const remove = useRemoveWebhookMutation({
    onSuccess: (_, webhook) => {
      setSecret(undefined);
      setDone(`${webhook.description} is removed.`);
    },
  });
  const busy = rotate.isPending || remove.isPending;

  /** A new webhook's secret, or a rotated one; the mutation has the list read again. */
  function showSecret(shown: ShownSecret) {
    setDone("");
    setProblem(undefined);
    setSecret(shown);
  }

  async function onAction(
    webhook: Webhook,
    action: WebhookAction,
  ): Promise<boolean> {
    setDone("");
    setProblem(undefined);
    try {
      if (action === "rotate") {
        const rotated = await rotate.mutateAsync(webhook.id);
        showSecret({ ...rotated, rotated: true });
      } else {
        await remove.mutateAsync(webhook);
        heading.current?.focus();
      }
      return true;
    } catch (error) {
      setProblem(adminProblemWords(error, me?.role));
      return false;
    }
  }

  return (
    <section aria-labelledby="webhooks-heading">
      <h2
        id="webhooks-heading"
        className="heading-m"
        ref={heading}
        tabIndex={-1}
      >
        Webhooks
      </h2>
      <p>
        The team’s webhooks: each fleet’s alert rule can send its alerts to any
        of them, as JSON signed with the webhook’s secret. Private and loopback
        addresses are refused unless allowed for the one webhook.
      </p>
      {secret && (
        <WebhookSecretNotice
          shown={secret}
          onDone={() => {
            setSecret(undefined);
            heading.current?.focus();
          }}
        />
      )}
      <ActionNotes
        problemTitle="That could not be done"
        problem={problem}
        done={done}
      />
      <QueryView
        query={webhooks}
        loading="Loading the webhooks…"
        problemTitle="The webhooks cannot be shown"
      >
        {(data) => (
          <WebhooksTable
            webhooks={data.webhooks}
            busy={busy}
            onAction={onAction}
          />
        )}
      </QueryView>
      <NewWebhookForm onAdded={showSecret} />
    </section>
  );
}
