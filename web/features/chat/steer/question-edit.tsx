import { useState } from "react";
import { frSteer } from "../../../i18n/fr-steer.ts";

const t = frSteer;

/** The last question in an edit box: « Reposer la question » asks the edited text as a new version. */
export function QuestionEdit({ initial, onSend, onCancel }: { initial: string; onSend(text: string): Promise<boolean>; onCancel(): void }) {
  const [text, setText] = useState(initial);
  const [sending, setSending] = useState(false);
  return (
    <li className="message question-edit">
      <form
        aria-label={t.editLabel}
        onSubmit={async (e) => {
          e.preventDefault();
          if (!text.trim() || sending) return;
          setSending(true);
          const taken = await onSend(text);
          setSending(false);
          if (taken) onCancel();
        }}
      >
        <label className="sr-only" htmlFor="edit-question">
          {t.editField}
        </label>
        {/* biome-ignore lint/a11y/noAutofocus: the box opens on the user's click of « Modifier ». */}
        <textarea id="edit-question" value={text} rows={3} autoFocus onChange={(e) => setText(e.target.value)} />
        <div className="question-edit-actions">
          <button type="button" className="secondary" onClick={onCancel}>
            {t.editCancel}
          </button>
          <button type="submit" className="primary" disabled={sending || !text.trim()}>
            {t.editSend}
          </button>
        </div>
      </form>
    </li>
  );
}
