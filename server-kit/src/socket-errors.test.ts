import { describe, expect, it } from "vitest";
import { closedUnderRequest, socketErrorCode } from "./socket-errors.ts";

const withCode = (code: string, message = "failed") =>
  Object.assign(new Error(message), { code });

describe("socketErrorCode", () => {
  it("reads fetch's cause first, then the error's own code", () => {
    const fetchError = new TypeError("fetch failed", {
      cause: withCode("UND_ERR_SOCKET"),
    });
    expect(socketErrorCode(fetchError)).toBe("UND_ERR_SOCKET");
    expect(socketErrorCode(withCode("ECONNREFUSED"))).toBe("ECONNREFUSED");
    expect(socketErrorCode(new Error("no code"))).toBeUndefined();
    expect(socketErrorCode("not an error")).toBeUndefined();
  });
});

describe("closedUnderRequest", () => {
  it("is a reset, a broken pipe or undici's 'other side closed', from either client", () => {
    for (const code of ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]) {
      expect(closedUnderRequest(withCode(code))).toBe(true);
      expect(
        closedUnderRequest(
          new TypeError("fetch failed", { cause: withCode(code) }),
        ),
      ).toBe(true);
    }
  });

  it("is not a refused connection, an abort or a time-out", () => {
    for (const code of ["ECONNREFUSED", "UND_ERR_ABORTED", "ETIMEDOUT"])
      expect(closedUnderRequest(withCode(code))).toBe(false);
    expect(closedUnderRequest(new DOMException("gone", "AbortError"))).toBe(
      false,
    );
  });
});
