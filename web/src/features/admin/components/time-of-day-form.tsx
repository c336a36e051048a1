// An admin's form for a UK time of day (the daily digest, the daily re-checks): one field, a
// save button, the refusal at the field and the saved words in a status line that is on the page
// before them, so they are announced.
import { useState, type FormEvent } from "react";
import type { UseMutationResult } from "@tanstack/react-query";
import { BusyButton } from "../../../components/busy-button.tsx";
import { LiveMessage } from "../../../components/live-message.tsx";
import { TextField } from "../../../components/text-field.tsx";

interface TimeOfDayFormProps<TAnswer> {
  id: string;
  label: string;
  hint: string;
  current: string;
  /** Words refusing the time before it is sent, or undefined to send it. */
  check?: (time: string) => string | undefined;
  /** Saves the trimmed time (the button is busy while it is pending, refetch included). */
  save: UseMutationResult<TAnswer, Error, string>;
  /** The words saying the time is saved, from the answer. */
  savedWords: (answer: TAnswer) => string;
  /** The words for a save that failed. */
  problemWords: (error: unknown) => string;
}

export function TimeOfDayForm<TAnswer>({
  id,
  label,
  hint,
  current,
  check,
  save,
  savedWords,
  problemWords,
}: TimeOfDayFormProps<TAnswer>) {
  const [time, setTime] = useState(current);
  const [note, setNote] = useState<{ error?: string; saved?: string }>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const trimmed = time.trim();
    if (check) {
      const refusal = check(trimmed);
      if (refusal !== undefined) {
        setNote({ error: refusal });
        return;
      }
      setNote({});
    }
    save.mutate(trimmed, {
      onSuccess: (answer) => setNote({ saved: savedWords(answer) }),
      onError: (error) => setNote({ error: problemWords(error) }),
    });
  }

  return (
    <form noValidate onSubmit={submit}>
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
      <BusyButton busy={save.isPending} busyLabel="Saving…" secondary>
        Save the time
      </BusyButton>
      <LiveMessage>{note.saved}</LiveMessage>
    </form>
  );
}
