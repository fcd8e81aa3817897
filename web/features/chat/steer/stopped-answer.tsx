import { frSteer } from "../../../i18n/fr-steer.ts";
import type { ChatMessage } from "../../../lib/api-types.ts";
import { ModelText } from "../live/model-writing.tsx";
import { Markdown } from "../markdown.tsx";

const t = frSteer;

type Stopped = {
  answers?: Array<{ name: string; answer: string }>;
  /** The models still writing when the run stopped, with their text so far (docs/API.md, « Arrêter »). */
  partial_answers?: Array<{ name: string; text: string }>;
};

/**
 * A run the user stopped: labelled, with the synthesis written so far, each
 * model's text as it was when the run stopped (« Arrêté pendant la
 * rédaction », in the live panel's boxes) and the answers received before the stop.
 */
export function StoppedAnswer({ message }: { message: ChatMessage }) {
  const data = (message.result_data ?? {}) as Stopped;
  const answers = (data.answers ?? []).filter((a) => a.answer);
  const partial = (data.partial_answers ?? []).filter((p) => p.text);
  return (
    <div className="stopped-answer">
      <p className="clarify-title stopped-title">{t.stoppedTitle}</p>
      {message.content ? <Markdown text={message.content} /> : <p className="muted small">{t.stoppedEmpty}</p>}
      {partial.length > 0 && (
        // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: only keeps a click on « Tout afficher » (or in a text) from enlarging the message.
        <div className="model-writing-list stopped-writing" onClick={(e) => e.stopPropagation()}>
          {partial.map((p) => (
            <ModelText key={p.name} name={p.name} text={p.text} state="stopped" label={t.stoppedWritingOf(p.name)} note={t.stoppedWriting} />
          ))}
        </div>
      )}
      {answers.length > 0 && (
        <details className="live-individual">
          <summary>{t.stoppedAnswers(answers.length)}</summary>
          {answers.map((a) => (
            <section key={a.name}>
              <h3 className="small">{a.name}</h3>
              <Markdown text={a.answer} />
            </section>
          ))}
        </details>
      )}
    </div>
  );
}
