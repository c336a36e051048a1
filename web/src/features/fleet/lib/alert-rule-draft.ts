// The alert rule as its form holds it (ticked boxes, the addresses as typed) and back: the rule
// to send, in the contract's order, or what to fix in words for the field in error.
import {
  ALERT_KINDS,
  AlertRuleSchema,
  ENDING_THRESHOLDS,
  type AlertKind,
  type AlertRule,
  type EndingThreshold,
} from "@vics/shared";

export interface AlertRuleDraft {
  kinds: ReadonlySet<AlertKind>;
  endingDays: ReadonlySet<EndingThreshold>;
  /** The addresses as typed: one a line (commas and spaces part them too). */
  emails: string;
  instantKinds: ReadonlySet<AlertKind>;
  webhookIds: ReadonlySet<number>;
}

export type DraftField = "emails" | "webhooks";

export type DraftResult =
  | { ok: true; rule: AlertRule }
  | { ok: false; problems: { field: DraftField; message: string }[] };

export function draftOf(rule: AlertRule): AlertRuleDraft {
  return {
    kinds: new Set(rule.kinds),
    endingDays: new Set(rule.endingDays),
    emails: rule.emails.join("\n"),
    instantKinds: new Set(rule.instantKinds),
    webhookIds: new Set(rule.webhookIds),
  };
}

export function emailLines(text: string): string[] {
  return text.split(/[\s,;]+/).filter((line) => line !== "");
}

/**
 * The rule the draft says. Only the kinds that alert can go at once; only the team's webhooks
 * (`webhookIds`, in their order) can be chosen, so one removed meanwhile is dropped.
 */
export function ruleOf(
  draft: AlertRuleDraft,
  webhookIds: readonly number[],
): DraftResult {
  const parsed = AlertRuleSchema.safeParse({
    kinds: ALERT_KINDS.filter((kind) => draft.kinds.has(kind)),
    endingDays: ENDING_THRESHOLDS.filter((days) => draft.endingDays.has(days)),
    emails: emailLines(draft.emails),
    instantKinds: ALERT_KINDS.filter(
      (kind) => draft.kinds.has(kind) && draft.instantKinds.has(kind),
    ),
    webhookIds: webhookIds.filter((id) => draft.webhookIds.has(id)),
  });
  if (parsed.success) return { ok: true, rule: parsed.data };
  const messages = (field: DraftField) =>
    parsed.error.issues
      .filter((issue) =>
        field === "emails"
          ? issue.path[0] === "emails"
          : issue.path[0] === "webhookIds",
      )
      .map((issue) => issue.message);
  const problems = (["emails", "webhooks"] as const).flatMap((field) => {
    const found = messages(field);
    return found.length === 0 ? [] : [{ field, message: found.join("; ") }];
  });
  return { ok: false, problems };
}
