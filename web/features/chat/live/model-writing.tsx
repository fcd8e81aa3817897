import { memo, useLayoutEffect, useRef, useState } from "react";
import { frLive } from "../../../i18n/fr-live.ts";
import { Markdown } from "../markdown.tsx";
import type { ModelLine } from "./live-state.ts";
import "./model-writing.css";

const t = frLive.writing;

/**
 * One model's answer as it is written: its last lines (four on a phone, more
 * on a wide screen; the text is anchored to its end, so the newest words stay
 * in sight), the whole of it on demand. Also a stopped run's unfinished
 * answers, as they were when it stopped (steer/stopped-answer.tsx).
 */
export const ModelText = memo(function ModelText({
  name,
  text,
  state,
  label = t.of(name),
  note,
}: {
  name: string;
  text: string;
  /** The model's state, as a class (`state-…`): the styles of a failed, left out or stopped text. */
  state: ModelLine["state"] | "stopped";
  label?: string;
  /** A word under the name, e.g. why the text stops where it does (« Arrêté pendant la rédaction »). */
  note?: string;
}) {
  const [open, setOpen] = useState(false);
  // Whether the collapsed box hides lines (measured after each change): only then the fade and « Tout afficher ».
  const [clipped, setClipped] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the text grows, which changes the content's height.
  useLayoutEffect(() => {
    if (!open && box.current && content.current) setClipped(content.current.offsetHeight > box.current.clientHeight + 1);
  }, [text, open]);
  return (
    <section className={`model-writing state-${state}`} aria-label={label}>
      <header>
        <h3>{name}</h3>
        {note && <span className="model-writing-note small">{note}</span>}
        {(clipped || open) && (
          <button type="button" className="link-button small" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? t.collapse : t.expand}
          </button>
        )}
      </header>
      <div ref={box} className={`model-writing-text${open ? " open" : clipped ? " clipped" : ""}`}>
        <div ref={content}>
          <Markdown text={text} />
        </div>
      </div>
    </section>
  );
});

/**
 * The models' answers while they are written (issue 34): the first words a
 * user can read arrive with the fastest model, long before the synthesis.
 * Once the synthesis is being written, they fold away under one summary.
 */
export function ModelWriting({ models, folded }: { models: ModelLine[]; folded: boolean }) {
  const writing = models.filter((m) => m.text);
  if (writing.length === 0) return null;
  // Six texts growing ten times a second would flood a screen reader: the run's states are announced, not each word.
  const list = (
    <div className="model-writing-list" aria-live="off">
      {writing.map((m) => (
        <ModelText key={m.name} name={m.name} text={m.text!} state={m.state} />
      ))}
    </div>
  );
  if (!folded) return list;
  return (
    <details className="model-writing-folded">
      <summary>{t.folded(writing.length)}</summary>
      {list}
    </details>
  );
}
