import { afterEach, describe, expect, it, vi } from "vitest";
import { auditEvent } from "../store/proxy-store.contract.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { pruneAuditDaily } from "./audit-retention.ts";

const DAY = 86_400_000;
afterEach(() => {
  vi.useRealTimers();
});

describe("audit retention", () => {
  it("prunes at start and then once a day", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const pruneAudit = vi.fn(async () => 0);
    const stop = pruneAuditDaily({ pruneAudit } as never, Date.now, {
      info: vi.fn(),
      error: vi.fn(),
    });
    expect(pruneAudit).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(DAY - 1);
    expect(pruneAudit).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(pruneAudit).toHaveBeenCalledTimes(2);
    stop();
    vi.advanceTimersByTime(DAY);
    expect(pruneAudit).toHaveBeenCalledTimes(2);
  });

  it("removes what is past the retention period and logs how many", async () => {
    const store = openSqliteProxyStore({
      path: ":memory:",
      auditRetentionDays: 30,
    });
    await store.appendAudit(
      auditEvent({ at: Date.now() - 31 * DAY, requestId: "old" }),
    );
    await store.appendAudit(
      auditEvent({ at: Date.now() - 29 * DAY, requestId: "kept" }),
    );
    const info = vi.fn();
    const stop = pruneAuditDaily(store, Date.now, { info, error: vi.fn() });
    await vi.waitFor(() =>
      expect(info).toHaveBeenCalledWith(
        "audit events past their retention removed",
        { removed: 1 },
      ),
    );
    expect(
      (await store.searchAudit({ limit: 5 })).map((event) => event.requestId),
    ).toEqual(["kept"]);
    stop();
    await store.close();
  });

  it("logs a failure and keeps going", async () => {
    const error = vi.fn();
    const stop = pruneAuditDaily(
      { pruneAudit: () => Promise.reject(new Error("locked")) } as never,
      Date.now,
      { info: vi.fn(), error },
    );
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith(
        "audit pruning failed; it is tried again tomorrow",
        { error: "locked" },
      ),
    );
    stop();
  });
});
