import { useEffect, useState } from "react";
import { preloadMarkdown } from "../chat/markdown.tsx";
import { Modal } from "../../components/ui/modal.tsx";
import { TrashIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import { relativeTime } from "../../lib/format.ts";
import type { AiStatusValue } from "../chat/use-ai-status.ts";
import { AiStatusGrid } from "./ai-status-grid.tsx";
import { type ConversationSummary, conversationTitle, useHistory } from "./use-history.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";

const t = fr.history;

/** Saved conversations and the AI status grid; a click opens the conversation in the query tab. */
export function HistoryView({
  status,
  onOpen,
  onDeleted,
}: {
  status: AiStatusValue;
  /** Loads the conversation; rejects when it could not be loaded. */
  onOpen(id: number): Promise<void>;
  onDeleted(id: number): void;
}) {
  const { items, failed, reload, remove } = useHistory();
  // A conversation opened from here shows Markdown: its renderer comes while the list loads.
  useEffect(() => void preloadMarkdown(), []);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ConversationSummary | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function open(id: number) {
    setError(null);
    try {
      await onOpen(id);
    } catch {
      setError(t.loadError);
    }
  }

  async function doDelete() {
    if (!confirm) return;
    setDeleting(true);
    setError(null);
    try {
      await remove(confirm.id);
      onDeleted(confirm.id);
    } catch {
      setError(t.deleteError);
    } finally {
      setDeleting(false);
      setConfirm(null);
    }
  }

  return (
    <div className="history-layout">
      <section className="card" aria-labelledby="history-title">
        <h1 id="history-title">{t.title}</h1>
        <ErrorAlert message={error} />
        {failed && items === null ? (
          <div className="alert error load-error" role="alert">
            <p>{t.loadError}</p>
            <button type="button" className="secondary small-button" onClick={() => void reload()}>
              {fr.common.retry}
            </button>
          </div>
        ) : items === null ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> {fr.common.loading}
          </p>
        ) : items.length === 0 ? (
          <p className="muted">{t.empty}</p>
        ) : (
          <ul className="history-list">
            {items.map((c) => {
              const title = conversationTitle(c);
              return (
                <li key={c.id} className="history-item">
                  <button type="button" className="history-open" onClick={() => void open(c.id)}>
                    <strong className="history-title">{title}</strong>
                    {c.first_message && <span className="history-first muted">{c.first_message}</span>}
                    <span className="history-meta small muted">
                      {t.messages(c.message_count)} · {relativeTime(c.updated_at)}
                    </span>
                  </button>
                  <button type="button" className="icon-button danger history-delete" aria-label={t.deleteLabel(title)} onClick={() => setConfirm(c)}>
                    <TrashIcon />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <AiStatusGrid status={status} />
      {confirm && (
        <Modal title={t.confirmTitle} onClose={() => setConfirm(null)} size="sm">
          <p>{t.confirmText}</p>
          <p>
            <strong>{conversationTitle(confirm)}</strong>
          </p>
          <div className="button-row end">
            <button type="button" className="secondary" onClick={() => setConfirm(null)} data-autofocus>
              {fr.common.cancel}
            </button>
            <button type="button" className="danger-button" disabled={deleting} onClick={() => void doDelete()}>
              {t.delete}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
