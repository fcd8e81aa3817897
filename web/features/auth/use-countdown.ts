import { useCallback, useEffect, useState } from "react";

/**
 * Seconds left until a deadline, re-read from the clock every second, so a
 * throttled background tab still shows the right time when it comes back.
 */
export function useCountdown(seconds: number) {
  const [deadline, setDeadline] = useState(() => Date.now() + seconds * 1000);
  const [remaining, setRemaining] = useState(() => secondsLeft(deadline));

  useEffect(() => {
    setRemaining(secondsLeft(deadline));
    const id = setInterval(() => setRemaining(secondsLeft(deadline)), 1000);
    return () => clearInterval(id);
  }, [deadline]);

  /** From the full time again, or from the seconds really left (a code sent earlier). */
  const restart = useCallback((left: number = seconds) => setDeadline(Date.now() + left * 1000), [seconds]);
  return { remaining, restart };
}

const secondsLeft = (deadline: number) => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
