// Counts whole seconds down to zero, then calls onDone once (the 429 auto-retry).
import { useEffect, useEffectEvent, useState } from "react";

export interface Countdown {
  secondsLeft: number;
  running: boolean;
  cancel: () => void;
}

export function useCountdown(seconds: number, onDone: () => void): Countdown {
  const [secondsLeft, setSecondsLeft] = useState(Math.max(0, seconds));
  const [cancelled, setCancelled] = useState(false);
  const finish = useEffectEvent(onDone);
  const running = !cancelled && secondsLeft > 0;

  useEffect(() => {
    if (cancelled) return;
    if (secondsLeft <= 0) {
      finish();
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, cancelled]);

  return { secondsLeft, running, cancel: () => setCancelled(true) };
}
