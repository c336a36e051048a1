// One delivery in the delivery log: when the alert was owed, its fleet and vehicle, the channel
// and to whom, its status with its attempts and note; and "Replay" when it failed or was
// dropped.
import { formatRegistration, type Delivery } from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import {
  attemptWords,
  canReplay,
  CHANNEL_WORDS,
  STATUS_WORDS,
  TIMING_WORDS,
} from "../lib/delivery-words.ts";

interface DeliveryRowProps {
  delivery: Delivery;
  replaying: boolean;
  onReplay: (delivery: Delivery) => void;
}

export function DeliveryRow({
  delivery,
  replaying,
  onReplay,
}: DeliveryRowProps) {
  const attempts = attemptWords(delivery);
  const whatId = `delivery-${delivery.id}-what`;
  return (
    <tr>
      <td>
        <time dateTime={delivery.createdAt}>
          {formatDateTime(delivery.createdAt)}
        </time>
        {delivery.status === "pending" && delivery.nextAttemptAt && (
          <span className="hint alerts__detail">
            Next try {formatDateTime(delivery.nextAttemptAt)}
          </span>
        )}
      </td>
      <td>{delivery.fleet.name}</td>
      <td>{formatRegistration(delivery.registration)}</td>
      <td>
        {CHANNEL_WORDS[delivery.channel]}
        <span className="hint alerts__detail">
          {TIMING_WORDS[delivery.timing]}
        </span>
      </td>
      <td>
        <span className="alerts__url" id={whatId}>
          {delivery.to}
        </span>
      </td>
      <td>
        <span className={`tag alerts__status-tag--${delivery.status}`}>
          {STATUS_WORDS[delivery.status]}
        </span>
      </td>
      <td>
        {attempts.count}
        {attempts.last && (
          <span className="hint alerts__detail">{attempts.last}</span>
        )}
      </td>
      <td>{delivery.note ?? <span className="hint">None</span>}</td>
      <td>
        {canReplay(delivery) && (
          <BusyButton
            secondary
            busy={replaying}
            busyLabel="Replaying…"
            onClick={() => onReplay(delivery)}
            describedBy={whatId}
          >
            Replay
          </BusyButton>
        )}
      </td>
    </tr>
  );
}
