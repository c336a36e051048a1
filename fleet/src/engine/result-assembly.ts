// Puts each registration's parts together into one VehicleResult, once every part the run asks
// for is final, and holds the registrations still unanswered. A registration leaves the set the
// moment its result is built, so no registration can ever get two results in one run.
import type {
  ComplianceOutcome,
  InsuranceOutcome,
  VehicleResult,
} from "../results.ts";
import type { SettledPart } from "./job-verdict.ts";

interface Parts {
  insurance?: InsuranceOutcome;
  compliance?: ComplianceOutcome;
}

export class ResultAssembly {
  private readonly unanswered: Set<string>;
  /** Registrations with one part final and the other still out (compliance runs only). */
  private readonly partial = new Map<string, Parts>();
  private readonly checkCompliance: boolean;
  private readonly now: () => number;

  constructor(
    registrations: readonly string[],
    checkCompliance: boolean,
    now: () => number,
  ) {
    this.unanswered = new Set(registrations);
    this.checkCompliance = checkCompliance;
    this.now = now;
  }

  get unansweredCount(): number {
    return this.unanswered.size;
  }

  /** The results these parts complete (answers for registrations already answered are ignored). */
  complete(settled: readonly SettledPart[]): VehicleResult[] {
    // One timestamp per batch: formatting one per vehicle is most of the cost of 100,000.
    const checkedAt = new Date(this.now()).toISOString();
    const results: VehicleResult[] = [];
    for (const part of settled) {
      const { registration } = part;
      if (!this.unanswered.has(registration)) continue;
      const known = this.checkCompliance
        ? this.partial.get(registration)
        : undefined;
      const insurance = part.insurance ?? known?.insurance;
      const compliance = part.compliance ?? known?.compliance;
      const result = this.build(
        registration,
        { insurance, compliance },
        checkedAt,
      );
      if (result) results.push(result);
      else this.partial.set(registration, { insurance, compliance });
    }
    return results;
  }

  /** A result for every registration still unanswered: what is known, the rest "not checked". */
  giveUp(reason: string): VehicleResult[] {
    const checkedAt = new Date(this.now()).toISOString();
    const notChecked = { status: "not-checked", reason } as const;
    const results: VehicleResult[] = [];
    for (const registration of [...this.unanswered]) {
      const known = this.partial.get(registration);
      const parts = {
        insurance: known?.insurance ?? notChecked,
        compliance: known?.compliance ?? notChecked,
      };
      const result = this.build(registration, parts, checkedAt);
      if (result) results.push(result);
    }
    return results;
  }

  private build(
    registration: string,
    { insurance, compliance }: Parts,
    checkedAt: string,
  ): VehicleResult | undefined {
    if (!insurance) return undefined;
    if (!this.checkCompliance) {
      this.unanswered.delete(registration);
      return { registration, insurance, checkedAt };
    }
    if (!compliance) return undefined;
    this.unanswered.delete(registration);
    this.partial.delete(registration);
    return { registration, insurance, compliance, checkedAt };
  }
}

/** Whether any part of a result ended "not checked" (the rows a user may retry). */
export function isNotChecked(result: VehicleResult): boolean {
  return (
    result.insurance.status === "not-checked" ||
    result.compliance?.status === "not-checked"
  );
}
