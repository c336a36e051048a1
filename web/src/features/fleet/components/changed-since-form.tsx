// "Changed since": a UK date from which the fleet's page shows only the vehicles whose
// insurance, MOT, road tax, fines or register entry changed, each with what moved. Asked for with
// a button, not at each keystroke: a date typed digit by digit is many dates on the way.
import { useId, useState, type FormEvent } from "react";
import { ukMidnight } from "@vics/shared";
import { TextField } from "../../../components/text-field.tsx";

interface ChangedSinceFormProps {
  /** The date shown now (YYYY-MM-DD), if any. */
  since?: string;
  onSince: (since: string | undefined) => void;
}

export function ChangedSinceForm({ since, onSince }: ChangedSinceFormProps) {
  const id = useId();
  const [date, setDate] = useState(since ?? "");
  const [error, setError] = useState<string>();
  // A link or Back that changes the date: the box takes it.
  const [seen, setSeen] = useState(since);
  if (seen !== since) {
    setSeen(since);
    setDate(since ?? "");
    setError(undefined);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (ukMidnight(date) === undefined) {
      setError("Enter a date, such as 24 11 2026");
      return;
    }
    setError(undefined);
    onSince(date);
  }

  return (
    <form className="saved-fleet__since" noValidate onSubmit={submit}>
      <TextField
        id={`${id}-since`}
        label="Changed since"
        hint="Only the vehicles whose insurance, MOT, road tax, fines or register entry changed from that day on, with what changed"
        type="date"
        width="short"
        value={date}
        onChange={setDate}
        error={error}
      />
      <div className="saved-fleet__since-buttons">
        <button type="submit" className="button button--secondary">
          Show what changed
        </button>
        {since && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => onSince(undefined)}
          >
            Show every vehicle
          </button>
        )}
      </div>
    </form>
  );
}
