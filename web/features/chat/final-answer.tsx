import { useState } from "react";
import { REFUSAL_REASON } from "../../i18n/fr-live.ts";
import { fr } from "../../i18n/fr.ts";
import type { ChatMessage } from "../../lib/api-types.ts";
import { readFinalResult } from "./final-result.ts";
import { DegradedNotice, splitNotice } from "./live/degraded-notice.tsx";
import { ModelPanel } from "./live/model-panel.tsx";
import { Markdown } from "./markdown.tsx";
import { PeerRanking } from "./peer-ranking.tsx";

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
          <PeerRanking data={message.result_data} />
          <div className="answered">
            <span className="muted small">{t.answeredBy}</span>
            {r.answers.map((a) =>
              a.content ? (
                <button
                  key={a.name}
                  type="button"
                  className={`chip${open === a.name ? " active" : ""}`}
                  aria-expanded={open === a.name}
                  title={a.label ? t.letterMeaning(letterOf(a.label)) : undefined}
                  aria-label={chipName(a.name, a.label, open === a.name)}
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
                  {a.error ? ` (${a.error === REFUSAL_REASON ? t.declinedModel : t.failedModel})` : ""}
                </span>
              ),
            )}
          </div>
          {shown?.content && (
            // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: only keeps clicks inside from enlarging the message.
            <div className="model-answer" onClick={(e) => e.stopPropagation()}>
              <h3>
                {shown.name}
                {shown.label && <span className="muted small"> · {shown.label}</span>}
              </h3>
              <Markdown text={shown.content} />
            </div>
          )}
          <ModelPanel data={message.result_data} />
        </div>
      )}
    </div>
  );
}

/** The anonymous letter the synthesis cites; older answers stored it as "Réponse A". */
const letterOf = (label: string) => label.replace(/^Réponse\s+/i, "");

/** Starts with the chip's visible text ("GPT-4 · F", WCAG 2.5.3), then says what the letter is and what the click does. */
function chipName(name: string, label: string | null, open: boolean): string {
  const action = open ? t.hideModel(name) : t.showModel(name);
  if (!label) return action;
  const letter = letterOf(label);
  const said = letter === label ? `${name} · ${label}, ${t.letterName(letter)}` : `${name} · ${label}`;
  return `${said} : ${action.charAt(0).toLowerCase()}${action.slice(1)}`;
}
