import { useState } from "react";
import { fr } from "../../i18n/fr.ts";
import { type ChatMessage, readFinalResult } from "./chat-types.ts";
import { DegradedNotice, splitNotice } from "./live/degraded-notice.tsx";
import { ModelPanel } from "./live/model-panel.tsx";
import { Markdown } from "./markdown.tsx";

const t = fr.chat;

/** A consolidated answer: the synthesis, who wrote it, who answered, and each model's own answer on demand. */
export function FinalAnswer({ message }: { message: ChatMessage }) {
  const r = readFinalResult(message.result_data);
  const [open, setOpen] = useState<string | null>(null);
  const shown = r.answers.find((a) => a.name === open);
  const { notice, body } = splitNotice(message.content, message.result_data?.notice);
  return (
    <div className="final-answer">
      {notice && <DegradedNotice text={notice} />}
      <Markdown text={body} />
      {(r.primary || r.answers.length > 0) && (
        <div className="answer-meta">
          {r.primary && <p className="synthesis-by">{t.synthesisBy(r.primary)}</p>}
          <div className="answered">
            <span className="muted small">{t.answeredBy}</span>
            {r.answers.map((a) =>
              a.content ? (
                <button
                  key={a.name}
                  type="button"
                  className={`chip${open === a.name ? " active" : ""}`}
                  aria-expanded={open === a.name}
                  aria-label={open === a.name ? t.hideModel(a.name) : t.showModel(a.name)}
                  onClick={(e) => {
                    e.stopPropagation();
                    setOpen((o) => (o === a.name ? null : a.name));
                  }}
                >
                  {a.name}
                  {a.label && <span className="chip-label"> · {a.label}</span>}
                </button>
              ) : (
                <span key={a.name} className={`chip static${a.error ? " failed" : ""}`}>
                  {a.name}
                  {a.error ? ` (${t.failedModel})` : ""}
                </span>
              ),
            )}
          </div>
          {shown?.content && (
            <div className="model-answer" onClick={(e) => e.stopPropagation()}>
              <h4>
                {shown.name}
                {shown.label && <span className="muted small"> · {shown.label}</span>}
              </h4>
              <Markdown text={shown.content} />
            </div>
          )}
          <ModelPanel data={message.result_data} />
        </div>
      )}
    </div>
  );
}
