import type { Progress } from "./use-progress.ts";

/** Always takes its room while a conversation is open, so the list does not jump when it appears. */
export function ProgressBar({ progress }: { progress: Progress }) {
  return (
    <div className={`progress-slot${progress ? " active" : ""}`}>
      {progress && (
        <div
          role="progressbar"
          aria-label={progress.label}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress.value}
          aria-valuetext={progress.label}
        >
          <div className="progress-head">
            <span>{progress.label}</span>
            <strong>{progress.value}%</strong>
          </div>
          <div className="progress-track">
            <div className={`progress-fill${progress.value === 100 ? " done" : ""}`} style={{ width: `${progress.value}%` }} />
          </div>
        </div>
      )}
    </div>
  );
}
