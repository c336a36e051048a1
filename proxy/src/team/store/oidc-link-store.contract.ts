import { describe, expect, it } from "vitest";
import type { ProxyStore } from "./proxy-store.ts";

const NOW = Date.parse("2026-11-24T10:00:00Z");
const ISSUER = "https://id.example.org";

/**
 * What a store keeps of a user's OIDC link (issue 33, point 7): whether the account has ever
 * signed in (an account in use is never linked by email alone), a link undone, and an
 * admin's leave to link at the next sign-in. Run by each engine through proxy-store.contract.ts.
 */
export function oidcLinkStoreContract(store: () => ProxyStore) {
  describe("OIDC links", () => {
    it("keeps the first sign-in's time, never a later one", async () => {
      const ann = await store().createUser(
        { email: "ann@example.org", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      expect(ann.signedInAt).toBeNull();
      const first = await store().updateUser(ann.id, {
        signedInAt: "2026-11-24T11:00:00.000Z",
      });
      expect(first?.signedInAt).toBe("2026-11-24T11:00:00.000Z");
      await store().updateUser(ann.id, {
        signedInAt: "2026-11-25T09:00:00.000Z",
      });
      expect((await store().findUserById(ann.id))?.signedInAt).toBe(
        "2026-11-24T11:00:00.000Z",
      );
      expect((await store().findUserByEmail(ann.email))?.signedInAt).toBe(
        "2026-11-24T11:00:00.000Z",
      );
    });

    it("undoes a link, after which the identity may link to another account", async () => {
      const ann = await store().createUser(
        { email: "ann@example.org", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      const bob = await store().createUser(
        { email: "bob@example.org", name: "Bob", role: "staff" },
        new Date(NOW),
      );
      await store().updateUser(ann.id, {
        oidc: { issuer: ISSUER, subject: "s-1" },
      });
      const undone = await store().updateUser(ann.id, { oidc: null });
      expect(undone).toMatchObject({
        oidcIssuer: null,
        oidcSubject: null,
        name: "Ann",
      });
      expect(await store().findUserByOidc(ISSUER, "s-1")).toBeUndefined();
      await store().updateUser(bob.id, {
        oidc: { issuer: ISSUER, subject: "s-1" },
      });
      expect((await store().findUserByOidc(ISSUER, "s-1"))?.id).toBe(bob.id);
      // A change that does not name the link leaves it.
      await store().updateUser(bob.id, { name: "Robert" });
      expect((await store().findUserById(bob.id))?.oidcSubject).toBe("s-1");
    });

    it("keeps an admin's leave to link until it is used or withdrawn", async () => {
      const ann = await store().createUser(
        { email: "ann@example.org", name: "Ann", role: "staff" },
        new Date(NOW),
      );
      expect(ann.oidcLinkAllowedUntil).toBeNull();
      const allowed = await store().updateUser(ann.id, {
        oidcLinkAllowedUntil: NOW + 3_600_000,
      });
      expect(allowed?.oidcLinkAllowedUntil).toBe(NOW + 3_600_000);
      await store().updateUser(ann.id, { name: "Ann E" });
      expect((await store().findUserById(ann.id))?.oidcLinkAllowedUntil).toBe(
        NOW + 3_600_000,
      );
      const used = await store().updateUser(ann.id, {
        oidc: { issuer: ISSUER, subject: "ann" },
        oidcLinkAllowedUntil: null,
      });
      expect(used).toMatchObject({
        oidcSubject: "ann",
        oidcLinkAllowedUntil: null,
      });
    });
  });
}
