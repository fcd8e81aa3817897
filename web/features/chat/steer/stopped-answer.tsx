import { frSteer } from "../../../i18n/fr-steer.ts";
import type { ChatMessage } from "../../../lib/api-types.ts";
import { Markdown } from "../markdown.tsx";

const t = frSteer;

/** A run the user stopped: labelled, with the synthesis written so far and the answers received before the stop. */
export function StoppedAnswer({ message }: { message: ChatMessage }) {
  const answers = ((message.result_data?.answers ?? []) as Array<{ name: string; answer: string }>).filter((a) => a.answer);
  return (
    <div className="stopped-answer">
      <p className="clarify-title stopped-title">{t.stoppedTitle}</p>
      {message.content ? <Markdown text={message.content} /> : <p className="muted small">{t.stoppedEmpty}</p>}
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
