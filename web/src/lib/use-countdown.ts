// Counts whole seconds down to zero, then calls onDone once (the 429 auto-retry).
import { useEffect, useEffectEvent, useState } from "react";

export interface Countdown {
  secondsLeft: number;
  running: boolean;
  cancel: () => void;
}

// Checked often, but measured against a deadline: background tabs throttle timers,
// and the wait must still end on time.
const TICK_MS = 250;

export function useCountdown(seconds: number, onDone: () => void): Countdown {
  const [secondsLeft, setSecondsLeft] = useState(Math.max(0, seconds));
  const [cancelled, setCancelled] = useState(false);
  const finish = useEffectEvent(onDone);

  useEffect(() => {
    if (cancelled) return;
    const deadline = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) {
        clearInterval(timer);
        finish();
      }
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [seconds, cancelled]);

  return {
    secondsLeft,
    running: !cancelled && secondsLeft > 0,
    cancel: () => setCancelled(true),
  };
}
