// The audit log's search: user, registration, first and last day. Submitting puts them in the
// address (a shareable search); what cannot be a registration or a date is said first.
import { useState, type FormEvent } from "react";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { TextField } from "../../../components/text-field.tsx";
import { useFormErrors } from "../../../components/use-form-errors.ts";
import {
  FILTER_IDS,
  filtersFromForm,
  formFromFilters,
  type AuditFilters,
} from "../lib/audit-filters.ts";

interface AuditFiltersFormProps {
  filters: AuditFilters;
  onSearch: (filters: AuditFilters) => void;
  onClear: () => void;
}

const DATE_HINT = "For example, 27/11/2026";

export function AuditFiltersForm({
  filters,
  onSearch,
  onClear,
}: AuditFiltersFormProps) {
  const form = useFormErrors();
  const [values, setValues] = useState(() => formFromFilters(filters));
  // The address changed from outside (Back, a shared link): the form follows it.
  const [shownFor, setShownFor] = useState(filters);
  if (shownFor !== filters) {
    setShownFor(filters);
    setValues(formFromFilters(filters));
  }
  const set = (key: keyof typeof values) => (value: string) =>
    setValues((previous) => ({ ...previous, [key]: value }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = filtersFromForm(values);
    if ("errors" in result) return form.show(result.errors);
    form.clear();
    onSearch(result.filters);
  }

  return (
    <section aria-labelledby="audit-filters-heading" className="audit-filters">
      <h2 id="audit-filters-heading" className="heading-m">
        Find events
      </h2>
      {form.errors.length > 0 && (
        <ErrorSummary errors={form.errors} attempt={form.attempt} />
      )}
      <form noValidate onSubmit={submit}>
        <div className="audit-filters__fields">
          <TextField
            id={FILTER_IDS.user}
            label="User"
            hint="Their email address"
            spellCheck={false}
            value={values.user}
            onChange={set("user")}
          />
          <TextField
            id={FILTER_IDS.registration}
            label="Registration"
            hint="For example, AB12 CDE"
            width="medium"
            spellCheck={false}
            value={values.registration}
            onChange={set("registration")}
            error={form.errorFor(FILTER_IDS.registration)}
          />
          <TextField
            id={FILTER_IDS.from}
            label="From"
            hint={DATE_HINT}
            width="medium"
            value={values.from}
            onChange={set("from")}
            error={form.errorFor(FILTER_IDS.from)}
          />
          <TextField
            id={FILTER_IDS.to}
            label="To (this day included)"
            hint={DATE_HINT}
            width="medium"
            value={values.to}
            onChange={set("to")}
            error={form.errorFor(FILTER_IDS.to)}
          />
        </div>
        <div className="button-group">
          <button type="submit" className="button">
            Search
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              form.clear();
              onClear();
            }}
          >
            Clear filters
          </button>
        </div>
      </form>
    </section>
  );
}
