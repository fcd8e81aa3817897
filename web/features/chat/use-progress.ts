import { useCallback, useEffect, useRef, useState } from "react";
import { fr } from "../../i18n/fr.ts";

/** docs/PRODUCT.md#final-processing: 15, 30, 65, 85, 95 one second apart, then 100 'Analyse terminée', cleared 1.5 s later. */
export const PROGRESS_STEPS = [15, 30, 65, 85, 95] as const;
export const STEP_MS = 1000;
export const CLEAR_AFTER_MS = 1500;

export type Progress = { value: number; label: string } | null;
const label = (v: number) => fr.chat.progress[v as keyof typeof fr.chat.progress];

/** The simulated progress of final processing: a display of time passing, not of real work. */
export function useProgress() {
  const [progress, setProgress] = useState<Progress>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const clear = useCallback(() => {
    for (const t of timers.current) clearTimeout(t);
    timers.current = [];
  }, []);
  useEffect(() => clear, [clear]);

  const start = useCallback(() => {
    clear();
    PROGRESS_STEPS.forEach((v, i) => {
      if (i === 0) setProgress({ value: v, label: label(v) });
      else timers.current.push(setTimeout(() => setProgress({ value: v, label: label(v) }), i * STEP_MS));
    });
  }, [clear]);

  const finish = useCallback(() => {
    clear();
    setProgress({ value: 100, label: label(100) });
    timers.current.push(setTimeout(() => setProgress(null), CLEAR_AFTER_MS));
  }, [clear]);

  const cancel = useCallback(() => {
    clear();
    setProgress(null);
  }, [clear]);

  return { progress, start, finish, cancel };
}
