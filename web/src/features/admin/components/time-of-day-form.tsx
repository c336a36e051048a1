// An admin's form for a UK time of day (the daily digest, the daily re-checks): one field, a
// save button, the refusal at the field and the saved words in a status line that is on the page
// before them, so they are announced.
import { useState, type FormEvent } from "react";
import { BusyButton } from "../../../components/busy-button.tsx";
import { LiveMessage } from "../../../components/live-message.tsx";
import { TextField } from "../../../components/text-field.tsx";

interface TimeOfDayFormProps {
  id: string;
  label: string;
  hint: string;
  current: string;
  /** Words refusing the time before it is sent, or undefined to send it. */
  check?: (time: string) => string | undefined;
  /** Saves the trimmed time; resolves to the words saying it is saved. */
  save: (time: string) => Promise<string>;
  /** Runs once the saved words are shown (a refetch, say); the button stays busy meanwhile. */
  afterSave?: () => Promise<unknown>;
  /** The words for a save that failed. */
  problemWords: (error: unknown) => string;
}

export function TimeOfDayForm({
  id,
  label,
  hint,
  current,
  check,
  save,
  afterSave,
  problemWords,
}: TimeOfDayFormProps) {
  const [time, setTime] = useState(current);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ error?: string; saved?: string }>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const trimmed = time.trim();
    if (check) {
      const refusal = check(trimmed);
      if (refusal !== undefined) {
        setNote({ error: refusal });
        return;
      }
      setNote({});
    }
    setBusy(true);
    try {
      setNote({ saved: await save(trimmed) });
      await afterSave?.();
    } catch (error) {
      setNote({ error: problemWords(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        id={id}
        label={label}
        hint={hint}
        value={time}
        onChange={setTime}
        width="short"
        autoComplete="off"
        error={note.error}
      />
      <BusyButton busy={busy} busyLabel="Saving…" secondary>
        Save the time
      </BusyButton>
      <LiveMessage>{note.saved}</LiveMessage>
    </form>
  );
}
