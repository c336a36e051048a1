import { describe, expect, it } from "vitest";
import { roleNeededFor, roleRequiredWords } from "./roles.ts";

describe("the words for a role that may not do something", () => {
  it("say what the role lets the user do, what is needed, and who to ask", () => {
    expect(roleRequiredWords("staff", "fleet")).toBe(
      "Your role, staff, lets you make single insurance and compliance checks. Fleet checks need the fleet role: ask an admin.",
    );
    expect(roleRequiredWords("fleet", "admin")).toBe(
      "Your role, fleet, lets you make single checks and fleet checks of whole lists. Managing users, the audit log, the data, its sources and alert deliveries need the admin role: ask an admin.",
    );
  });

  it("still point to an admin when what is needed is not known", () => {
    expect(roleRequiredWords("staff")).toBe(
      "Your role, staff, lets you make single insurance and compliance checks. It does not let you do this: ask an admin.",
    );
  });
});

describe("the role a path needs", () => {
  it.each([
    ["/api/admin/users", "admin"],
    ["/api/admin/audit.csv?user=x", "admin"],
    ["/api/v1/vehicle/bulk-insurance", "fleet"],
    ["/api/v1/vehicle/bulk-compliance", "fleet"],
    ["/api/v1/vehicle/AB12CDE/insurance", undefined],
  ])("%s: %s", (path, role) => {
    expect(roleNeededFor(path)).toBe(role);
  });
});
