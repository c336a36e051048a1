// The current time, refreshed on an interval, so "5 minutes ago" stays true on an open page.
import { useEffect, useState } from "react";

export function useNow(refreshMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs]);
  return now;
}
