import { type FormEvent, useState } from "react";
import { Field } from "../../components/ui/field.tsx";
import { Modal } from "../../components/ui/modal.tsx";
import { fr } from "../../i18n/fr.ts";
import { frSharing } from "../../i18n/fr-sharing.ts";
import { errorText } from "../../lib/api.ts";
import { renameConversation } from "./sharing.api.ts";

const t = frSharing.rename;
/** As the server counts (src/chat/chat.schemas.ts): spaces folded, then at most 200 characters. */
export const MAX_TITLE_CHARS = 200;

/** What the server would refuse, said before sending; the server's own French detail otherwise. */
export function titleProblem(title: string): string | null {
  const flat = title.replace(/\s+/g, " ").trim();
  if (!flat) return t.empty;
  if ([...flat].length > MAX_TITLE_CHARS) return t.tooLong;
  return null;
}

/** « Renommer »: from the history and from the conversation bar. */
export function RenameDialog({
  conversationId,
  title,
  onClose,
  onRenamed,
}: {
  conversationId: number;
  title: string;
  onClose(): void;
  onRenamed(title: string): void;
}) {
  const [value, setValue] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = titleProblem(value);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      const saved = await renameConversation(conversationId, value);
      onRenamed(saved.title);
    } catch (err) {
      setError(errorText(err, t.error));
      setBusy(false);
    }
  }

  return (
    <Modal title={t.title} onClose={onClose} size="sm">
      <form className="rename-form" onSubmit={(e) => void submit(e)} noValidate>
        <Field label={t.field} hint={t.hint} error={error}>
          {(a11y) => (
            <input
              {...a11y}
              data-autofocus
              maxLength={MAX_TITLE_CHARS + 50}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                setError(null);
              }}
            />
          )}
        </Field>
        <div className="button-row end">
          <button type="button" className="secondary" onClick={onClose}>
            {fr.common.cancel}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {t.save}
          </button>
        </div>
      </form>
    </Modal>
  );
}
