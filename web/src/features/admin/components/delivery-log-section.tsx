// On the alerts page: the delivery log. Every email and webhook delivery the alerts are owed,
// newest first, with each attempt and why one was dropped; filtered by status, and a failed or
// dropped delivery sent again ("Replay"), after which the log is read again.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  DELIVERY_STATUSES,
  formatRegistration,
  type Delivery,
  type DeliveryStatus,
} from "@vics/shared";
import { ShowSelect } from "../../../components/list-controls.tsx";
import { useSessionUser } from "../../../lib/session-user.ts";
import {
  deliveriesQueryOptions,
  useReplayDeliveryMutation,
} from "../api/deliveries-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";
import { NONE_WORDS, STATUS_FILTER_WORDS } from "../lib/delivery-words.ts";
import { DeliveryRow } from "./delivery-row.tsx";
import { ActionNotes } from "../../../components/action-notes.tsx";
import { QueryView } from "./query-view.tsx";

function DeliveriesTable({
  deliveries,
  status,
  replaying,
  onReplay,
}: {
  deliveries: Delivery[];
  status: DeliveryStatus | undefined;
  replaying: number | undefined;
  onReplay: (delivery: Delivery) => void;
}) {
  if (deliveries.length === 0)
    return (
      <p>
        {status
          ? NONE_WORDS[status]
          : "No deliveries yet: alerts are delivered once a fleet’s rule names an address or webhook."}
      </p>
    );
  return (
    <table className="data-table alerts__deliveries">
      <caption className="visually-hidden">Deliveries, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When (UK)</th>
          <th scope="col">Fleet</th>
          <th scope="col">Vehicle</th>
          <th scope="col">Channel</th>
          <th scope="col">To</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Note</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <DeliveryRow
            key={delivery.id}
            delivery={delivery}
            replaying={replaying === delivery.id}
            onReplay={onReplay}
          />
        ))}
      </tbody>
    </table>
  );
}

export function DeliveryLogSection() {
  const me = useSessionUser();
  const [status, setStatus] = useState<DeliveryStatus>();
  const log = useQuery(deliveriesQueryOptions(status));
  const [done, setDone] = useState("");
  const [problem, setProblem] = useState<string>();
  const replay = useReplayDeliveryMutation({
    onSuccess: (_, delivery) =>
      setDone(
        `The delivery to ${delivery.to} about ${formatRegistration(delivery.registration)} is being sent again.`,
      ),
    onError: (error) => setProblem(adminProblemWords(error, me?.role)),
  });

  function replayOne(delivery: Delivery) {
    if (replay.isPending) return;
    setDone("");
    setProblem(undefined);
    replay.mutate(delivery);
  }

  return (
    <section aria-labelledby="delivery-log-heading">
      <h2 id="delivery-log-heading" className="heading-m">
        Delivery log
      </h2>
      <p>
        Every email and webhook delivery the alerts are owed, newest first (the
        latest 200), with what the mail server or receiver answered. A failed
        delivery ran out of retries; “Replay” sends it again, as does one
        dropped.
      </p>
      <ShowSelect<DeliveryStatus | "">
        value={status ?? ""}
        onChange={(value) => setStatus(value === "" ? undefined : value)}
      >
        <option value="">All deliveries</option>
        {DELIVERY_STATUSES.map((each) => (
          <option key={each} value={each}>
            {STATUS_FILTER_WORDS[each]}
          </option>
        ))}
      </ShowSelect>
      <ActionNotes
        problemTitle="The delivery was not replayed"
        problem={problem}
        done={done}
      />
      <QueryView
        query={log}
        loading="Loading the deliveries…"
        problemTitle="The deliveries cannot be shown"
      >
        {(data) => (
          <DeliveriesTable
            deliveries={data.deliveries}
            status={status}
            replaying={replay.isPending ? replay.variables.id : undefined}
            onReplay={replayOne}
          />
        )}
      </QueryView>
    </section>
  );
}
