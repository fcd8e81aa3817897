import { frLive, REFUSAL_REASON } from "../../../i18n/fr-live.ts";
import { fr } from "../../../i18n/fr.ts";
import { WarningIcon } from "../../../components/ui/icons.tsx";
import { Markdown } from "../markdown.tsx";
import { LiveDeliberation } from "../peer-ranking.tsx";
import { ProgressBar } from "../progress-bar.tsx";
import "./live.css";
import type { LiveState, ModelLine } from "./live-state.ts";
import { ModelWriting } from "./model-writing.tsx";
import { WebSourcesStep } from "../web-search/web-sources-step.tsx";

const t = frLive.run;

function lineText(m: ModelLine): string {
  if (m.state === "answered") return t.answered(m.seconds ?? "?");
  if (m.state === "failed") return m.reason === REFUSAL_REASON ? t.declined : t.failed(m.reason ?? "");
  if (m.state === "left_out") return t.leftOut;
  if (m.state === "skipped") return t.skipped(m.reason ?? "");
  if (m.state === "writing") return t.writing;
  return t.waiting;
}

/**
 * The run as it happens: the bar (the spec's steps as its floor, moved by
 * real events), one line per model, then the synthesis as it is written.
 * After a failure: the reason, the "Réessayer" button and the models' own
 * answers, labelled as such.
 */
export function LiveRun({ state, onRetry, onEdit }: { state: LiveState; onRetry(): void; onEdit?: () => void }) {
  const label = fr.chat.progress[state.step as keyof typeof fr.chat.progress];
  return (
    <li className="message from-assistant live-run" aria-live="polite" aria-busy={!state.done}>
      {!state.failed && <ProgressBar progress={{ value: state.step, label }} />}
      {/* Only while the run goes on: it leaves with the run, when the answer (or the failure) takes its place. */}
      {!state.failed && !state.done && (
        <p className="warning-line">
          <WarningIcon size={16} /> {fr.chat.warning}
        </p>
      )}
      {state.web && !state.failed && <WebSourcesStep web={state.web} />}
      {state.models.length > 0 && (
        <ul className="live-models" aria-label={t.title}>
          {state.models.map((m) => (
            <li key={m.name} className={`live-model state-${m.state}`}>
              <span className="live-dot" aria-hidden="true" />
              <span className="live-name">{m.name}</span>
              <span className="live-status">{lineText(m)}</span>
            </li>
          ))}
        </ul>
      )}
      {!state.failed && <ModelWriting models={state.models} folded={state.synthesisBy !== null} />}
      {state.peerReview && <LiveDeliberation review={state.peerReview} />}
      {state.handovers.map((h) => (
        <p key={h.model} className="muted small live-handover">
          {t.synthesisRetry(h.model, h.reason)}
        </p>
      ))}
      {state.synthesisBy && !state.failed && (
        <div className="live-synthesis">
          <p className="muted small">{t.synthesis(state.synthesisBy)}</p>
          {state.text && <Markdown text={state.text} />}
        </div>
      )}
      {state.failed && (
        <div className="live-failed" role="alert">
          <strong className="notice-title">{t.failedTitle}</strong>
          <p>{state.failed.detail}</p>
          {/* Declined by the members: the same question would be declined again; it opens the question's edit box instead (on a phone, a scroll away). */}
          {state.failed.code !== "COUNCIL_DECLINED" ? (
            <button type="button" className="primary small-button" onClick={onRetry}>
              {t.retry}
            </button>
          ) : (
            onEdit && (
              <button type="button" className="primary small-button" onClick={onEdit}>
                {t.editQuestion}
              </button>
            )
          )}
          {state.failed.answers.length > 0 && (
            <details className="live-individual">
              <summary>{t.individualTitle}</summary>
              {state.failed.answers.map((a) => (
                <section key={a.name} className="model-answer">
                  <h3>{a.name}</h3>
                  <Markdown text={a.answer} />
                </section>
              ))}
            </details>
          )}
        </div>
      )}
    </li>
  );
}
