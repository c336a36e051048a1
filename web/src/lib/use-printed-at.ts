// When the page is printed: the time it was shown, made new each time the browser is about to
// print it (the print dialog, Ctrl-P or a "Print" button), so the paper says when it was made.
import { useEffect, useState } from "react";
import { flushSync } from "react-dom";

export function usePrintedAt(): Date {
  const [printedAt, setPrintedAt] = useState(() => new Date());
  useEffect(() => {
    // Synchronously: the browser lays out what it prints as soon as this event returns.
    const beforePrint = () => flushSync(() => setPrintedAt(new Date()));
    window.addEventListener("beforeprint", beforePrint);
    return () => window.removeEventListener("beforeprint", beforePrint);
  }, []);
  return printedAt;
}
