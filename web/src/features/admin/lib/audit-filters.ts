// The audit log's filters, kept in the address's search params so a search can be shared:
// user (email or id), registration (normalised, so "ab12 cde" finds AB12CDE), from and to (UK
// calendar dates, YYYY-MM-DD), and `before`, the page of older events.
import {
  AUDIT_PAGE_SIZE,
  AUTH_PATHS,
  isCalendarDate,
  parseRegistration,
} from "@vics/shared";
import type { FieldError } from "../../../components/error-summary.tsx";

export interface AuditFilters {
  user?: string;
  registration?: string;
  from?: string;
  to?: string;
  /** Events older than this id: the "Older events" page. */
  before?: number;
}

export const FILTER_IDS = {
  user: "audit-user",
  registration: "audit-registration",
  from: "audit-from",
  to: "audit-to",
} as const;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "27/11/2026", "27 11 2026", "27-11-2026" or "2026-11-27" as "2026-11-27". */
export function parseDate(text: string): string | undefined {
  const trimmed = text.trim();
  if (isCalendarDate(trimmed)) return trimmed;
  const match = /^(\d{1,2})[\s/.-]+(\d{1,2})[\s/.-]+(\d{4})$/.exec(trimmed);
  if (!match) return undefined;
  const [, day = "", month = "", year = ""] = match;
  const iso = `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
  return isCalendarDate(iso) ? iso : undefined;
}

/** "2026-11-27" as the field shows it: "27/11/2026". */
export function dateForField(iso: string | undefined): string {
  const match = iso ? ISO_DATE.exec(iso) : null;
  return match ? `${match[3]}/${match[2]}/${match[1]}` : "";
}

/** The filters in an address, leaving out anything that is not one (a hand-edited address). */
export function filtersFromParams(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  const user = params.get("user")?.trim();
  if (user) filters.user = user.slice(0, 320);
  const registration = parseRegistration(params.get("registration") ?? "");
  if (registration.ok) filters.registration = registration.registration;
  for (const key of ["from", "to"] as const) {
    const date = params.get(key);
    if (date && isCalendarDate(date)) filters[key] = date;
  }
  const before = Number(params.get("before"));
  if (Number.isSafeInteger(before) && before > 0) filters.before = before;
  return filters;
}

export function paramsFromFilters(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.user) params.set("user", filters.user);
  if (filters.registration) params.set("registration", filters.registration);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if (filters.before !== undefined)
    params.set("before", String(filters.before));
  return params;
}

/** The proxy's page of events for these filters. */
export function auditPath(filters: AuditFilters): string {
  const params = paramsFromFilters(filters);
  params.set("limit", String(AUDIT_PAGE_SIZE));
  return `${AUTH_PATHS.audit}?${params.toString()}`;
}

/** The CSV download of every event these filters find (not one page). */
export function auditCsvPath(filters: AuditFilters): string {
  const params = paramsFromFilters({ ...filters, before: undefined });
  const search = params.toString();
  return search ? `${AUTH_PATHS.auditCsv}?${search}` : AUTH_PATHS.auditCsv;
}

export interface FilterForm {
  user: string;
  registration: string;
  from: string;
  to: string;
}

export function formFromFilters(filters: AuditFilters): FilterForm {
  return {
    user: filters.user ?? "",
    registration: filters.registration ?? "",
    from: dateForField(filters.from),
    to: dateForField(filters.to),
  };
}

/** The form's values as filters (a new search: the newest events first), or what is wrong. */
export function filtersFromForm(
  form: FilterForm,
): { filters: AuditFilters } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const filters: AuditFilters = {};
  if (form.user.trim()) filters.user = form.user.trim();
  if (form.registration.trim()) {
    const parsed = parseRegistration(form.registration);
    if (parsed.ok) filters.registration = parsed.registration;
    else
      errors.push({
        fieldId: FILTER_IDS.registration,
        message: parsed.message,
      });
  }
  for (const key of ["from", "to"] as const) {
    if (!form[key].trim()) continue;
    const date = parseDate(form[key]);
    if (date) filters[key] = date;
    else
      errors.push({
        fieldId: FILTER_IDS[key],
        message: `Enter the ${key === "from" ? "first" : "last"} day as a date, like 27/11/2026`,
      });
  }
  if (filters.from && filters.to && filters.from > filters.to)
    errors.push({
      fieldId: FILTER_IDS.to,
      message: "The last day must be the same as or after the first day",
    });
  return errors.length > 0 ? { errors } : { filters };
}
