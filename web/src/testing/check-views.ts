// The two single-vehicle views, for tests that prove the same behaviour of both.
import { appPaths } from "../lib/app-paths.ts";
import {
  json,
  serveCompliance,
  serveInsurance,
  type Reply,
} from "./api-handlers.ts";
import { complianceFixture } from "./compliance-fixtures.ts";
import { insuranceFixture } from "./fixtures.ts";

export interface CheckView {
  name: string;
  /** The page with the empty form. */
  start: string;
  path: (registration: string) => string;
  /** The tab title's last part, and the recent checks' label. */
  title: string;
  recentLabel: string;
  submitLabel: string;
  /** The heading of a good answer for the fixtures' vehicle. */
  verdict: string;
  /** A good answer for any registration. */
  answer: (registration: string) => Response;
  /** Answers the view's check with `reply` (and, for compliance, serves the vehicle); returns the registrations checked. */
  serve: (reply: Reply) => string[];
  /** A 200 body that breaks the contract. */
  unreadable: Record<string, unknown>;
}

const serveVehicle = () =>
  serveInsurance((registration) => json(insuranceFixture({ registration })));

export const CHECK_VIEWS: CheckView[] = [
  {
    name: "insurance",
    start: appPaths.home(),
    path: appPaths.insurance,
    title: "Insurance check",
    recentLabel: "Insurance",
    submitLabel: "Check insurance",
    verdict: "Insured",
    answer: (registration) => json(insuranceFixture({ registration })),
    serve: serveInsurance,
    unreadable: { registration: "AB12CDE", insured: "yes" },
  },
  {
    name: "compliance",
    start: appPaths.compliance(),
    path: appPaths.compliance,
    title: "Compliance check",
    recentLabel: "Compliance",
    submitLabel: "Check compliance",
    verdict: "Compliant",
    answer: (registration) => json(complianceFixture({ registration })),
    serve: (reply) => {
      serveVehicle();
      return serveCompliance(reply);
    },
    unreadable: { registration: "AB12CDE", compliant: "yes" },
  },
];
