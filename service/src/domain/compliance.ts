import type { ComplianceChecks, ComplianceDetails, Policy } from "@vics/shared";
import { addYears, type IsoDate } from "@vics/shared";
import { type InsuranceStatus, insuranceStatus } from "./insurance.ts";

/** A vehicle needs its first MOT on the third anniversary of its first registration. */
export const MOT_EXEMPT_YEARS = 3;

export interface TaxRecord {
  sorn: boolean;
  /** Last day the vehicle is taxed; null when it was never taxed. */
  dueDate: IsoDate | null;
}

export interface Fine {
  issuedOn: IsoDate;
  amountPence: number;
  paid: boolean;
}

/** An MOT certificate: valid from its test through its expiry date. */
export interface MotTest {
  testedOn: IsoDate;
  expiresOn: IsoDate;
}

export interface ComplianceFacts {
  firstRegistered: IsoDate;
  policies: readonly Policy[];
  /** Every MOT certificate the vehicle has had, in test-date order. */
  motTests: readonly MotTest[];
  tax: TaxRecord;
  fines: readonly Fine[];
}

/** The MOT on `today` (any date): only certificates from tests on or before it count. */
export function motDetails(
  firstRegistered: IsoDate,
  motTests: readonly MotTest[],
  today: IsoDate,
): ComplianceDetails["mot"] {
  const latest = motTests.reduce<IsoDate | null>(
    (max, { testedOn, expiresOn }) =>
      testedOn <= today && (max === null || expiresOn > max) ? expiresOn : max,
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

/** Only unpaid fines issued on or before `today` (any date) count. */
export function fineDetails(
  fines: readonly Fine[],
  today: IsoDate,
): ComplianceDetails["fines"] {
  let count = 0;
  let totalPence = 0;
  for (const fine of fines)
    if (!fine.paid && fine.issuedOn <= today) {
      count++;
      totalPence += fine.amountPence;
    }
  return { count, totalPence };
}

export interface ComplianceVerdict {
  compliant: boolean;
  checks: ComplianceChecks;
  details: ComplianceDetails;
}

/** Why insuranceValid is what it is: insured until, or lapsed on, validTo; or none on record. */
export function insuranceDetails({
  insured,
  policy,
}: InsuranceStatus): NonNullable<ComplianceDetails["insurance"]> {
  if (!policy) return { status: "none", validTo: null };
  return { status: insured ? "insured" : "lapsed", validTo: policy.validTo };
}

/**
 * `insurance`: insuranceStatus of the facts' policies on `today`, when the caller has it
 * already (a bulk item shows the policy too), so it is worked out once.
 */
export function complianceVerdict(
  facts: ComplianceFacts,
  today: IsoDate,
  insurance: InsuranceStatus = insuranceStatus(facts.policies, today),
): ComplianceVerdict {
  const details: ComplianceDetails = {
    insurance: insuranceDetails(insurance),
    mot: motDetails(facts.firstRegistered, facts.motTests, today),
    tax: taxDetails(facts.tax, today),
    fines: fineDetails(facts.fines, today),
  };
  const checks: ComplianceChecks = {
    insuranceValid: insurance.insured,
    motValid: details.mot.status === "valid" || details.mot.status === "exempt",
    roadTaxPaid: details.tax.status === "taxed",
    noOutstandingFines: details.fines.count === 0,
  };
  return { compliant: Object.values(checks).every(Boolean), checks, details };
}
