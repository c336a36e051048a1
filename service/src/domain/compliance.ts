import type { ComplianceChecks, ComplianceDetails, Policy } from "@vics/shared";
import { addYears, type IsoDate } from "./dates.ts";
import { insuranceStatus } from "./insurance.ts";

/** A vehicle needs its first MOT on the third anniversary of its first registration. */
export const MOT_EXEMPT_YEARS = 3;

export interface TaxRecord {
  sorn: boolean;
  /** Last day the vehicle is taxed; null when it was never taxed. */
  dueDate: IsoDate | null;
}

export interface Fine {
  amountPence: number;
  paid: boolean;
}

export interface ComplianceFacts {
  firstRegistered: IsoDate;
  policies: readonly Policy[];
  /** Expiry date of every MOT certificate the vehicle has had. */
  motExpiries: readonly IsoDate[];
  tax: TaxRecord;
  fines: readonly Fine[];
}

export function motDetails(
  firstRegistered: IsoDate,
  motExpiries: readonly IsoDate[],
  today: IsoDate,
): ComplianceDetails["mot"] {
  const latest = motExpiries.reduce<IsoDate | null>(
    (max, expiry) => (max === null || expiry > max ? expiry : max),
    null,
  );
  if (today < addYears(firstRegistered, MOT_EXEMPT_YEARS))
    return { status: "exempt", expiry: latest };
  if (latest === null) return { status: "none", expiry: null };
  // A certificate is valid through its expiry date.
  return { status: latest >= today ? "valid" : "expired", expiry: latest };
}

export function taxDetails(
  tax: TaxRecord,
  today: IsoDate,
): ComplianceDetails["tax"] {
  if (tax.sorn) return { status: "sorn", dueDate: tax.dueDate };
  if (tax.dueDate !== null && tax.dueDate >= today)
    return { status: "taxed", dueDate: tax.dueDate };
  return { status: "untaxed", dueDate: tax.dueDate };
}

/** Only unpaid fines count. */
export function fineDetails(
  fines: readonly Fine[],
): ComplianceDetails["fines"] {
  const unpaid = fines.filter((fine) => !fine.paid);
  return {
    count: unpaid.length,
    totalPence: unpaid.reduce((total, fine) => total + fine.amountPence, 0),
  };
}

export interface ComplianceVerdict {
  compliant: boolean;
  checks: ComplianceChecks;
  details: ComplianceDetails;
}

/** Why insuranceValid is what it is: insured until, or lapsed on, validTo; or none on record. */
export function insuranceDetails(
  policies: readonly Policy[],
  today: IsoDate,
): NonNullable<ComplianceDetails["insurance"]> {
  const { insured, policy } = insuranceStatus(policies, today);
  if (!policy) return { status: "none", validTo: null };
  return { status: insured ? "insured" : "lapsed", validTo: policy.validTo };
}

export function complianceVerdict(
  facts: ComplianceFacts,
  today: IsoDate,
): ComplianceVerdict {
  const insurance = insuranceDetails(facts.policies, today);
  const details: ComplianceDetails = {
    insurance,
    mot: motDetails(facts.firstRegistered, facts.motExpiries, today),
    tax: taxDetails(facts.tax, today),
    fines: fineDetails(facts.fines),
  };
  const checks: ComplianceChecks = {
    insuranceValid: insurance.status === "insured",
    motValid: details.mot.status === "valid" || details.mot.status === "exempt",
    roadTaxPaid: details.tax.status === "taxed",
    noOutstandingFines: details.fines.count === 0,
  };
  return { compliant: Object.values(checks).every(Boolean), checks, details };
}
