// Under a finished fleet check, or on a list's review without checking it: keep its vehicles as
// one of the team's fleets, which VICS then re-checks every day, alerting when something
// changes. The fleet's page is linked once saved.
import { useState, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router";
import { isApiError } from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { TextField } from "../../../components/text-field.tsx";
import { useFormErrors } from "../../../components/use-form-errors.ts";
import { useSaveFleetMutation } from "../api/saved-fleets-api.ts";
import {
  fleetFromList,
  fleetNameFor,
  invalidRowsLeftOut,
  type ListToSave,
} from "../lib/fleet-from-run.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { LiveMessage } from "../../../components/live-message.tsx";

const NAME_ID = "save-fleet-name";

interface SaveFleetPanelProps {
  /** A finished run, or a reviewed list's name, rows and other columns. */
  list: ListToSave;
  /** What saving does, in words: under a finished check's, unless given. */
  intro?: ReactNode;
}

export function SaveFleetPanel({ list, intro }: SaveFleetPanelProps) {
  const form = useFormErrors();
  const [name, setName] = useState(() => fleetNameFor(list.name));
  const [saved, setSaved] = useState<{
    id: string;
    name: string;
    count: number;
    /** The list's invalid rows, left out of the fleet, in words. */
    leftOut?: string;
  }>();
  const save = useSaveFleetMutation({
    onSuccess: (fleet) => {
      form.clear();
      setSaved({
        id: fleet.id,
        name: fleet.name,
        count: fleet.vehicleCount,
        leftOut: invalidRowsLeftOut(list.rows),
      });
    },
    onError: (error) =>
      form.show([
        {
          fieldId: NAME_ID,
          message: isApiError(error)
            ? error.detail
            : "VICS could not save the fleet. Try again.",
        },
      ]),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    if (name.trim() === "") {
      form.show([{ fieldId: NAME_ID, message: "Give the fleet a name" }]);
      return;
    }
    save.mutate(fleetFromList(list, name.trim()));
  }

  return (
    <section aria-labelledby="save-fleet-heading" className="save-fleet">
      <h2 id="save-fleet-heading" className="heading-m">
        Watch this fleet
      </h2>
      {/* On the page before the form goes, so that "Saved…" is read out. */}
      <LiveMessage>
        {saved && (
          <>
            Saved {saved.count.toLocaleString("en-GB")}{" "}
            {saved.count === 1 ? "vehicle" : "vehicles"} as the fleet{" "}
            <Link to={fleetPaths.savedFleet(saved.id)}>{saved.name}</Link>
            {saved.leftOut ? `; ${saved.leftOut}` : ""}. VICS re-checks them
            every day and shows what changes on the fleet’s page.
          </>
        )}
      </LiveMessage>
      {!saved && (
        <>
          {intro ?? (
            <p>
              Save these vehicles, with your columns, as one of your team’s
              fleets: VICS re-checks them every day and tells you when something
              changes, so you need not upload this list again.
            </p>
          )}
          {form.errors.length > 0 && (
            <ErrorSummary errors={form.errors} attempt={form.attempt} />
          )}
          <form noValidate onSubmit={submit}>
            <TextField
              id={NAME_ID}
              label="Fleet name"
              value={name}
              onChange={setName}
              autoComplete="off"
              error={form.errorFor(NAME_ID)}
            />
            <BusyButton busy={save.isPending} busyLabel="Saving…">
              Save as a fleet
            </BusyButton>
          </form>
        </>
      )}
    </section>
  );
}
