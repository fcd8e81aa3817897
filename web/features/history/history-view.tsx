import { useEffect, useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { preloadMarkdown } from "../chat/markdown.tsx";
import { Modal } from "../../components/ui/modal.tsx";
import { fr } from "../../i18n/fr.ts";
import { frData } from "../../i18n/fr-data.ts";
import type { AiStatusValue } from "../chat/use-ai-status.ts";
import { AiStatusGrid } from "./ai-status-grid.tsx";
import { HistoryList } from "./history-list.tsx";
import { RenameDialog } from "../sharing/rename-dialog.tsx";
import type { ConversationSummary } from "../../lib/api-types.ts";
import { conversationTitle, useHistory } from "./use-history.ts";

const t = fr.history;
const td = frData.history;

/** Saved conversations (searchable, by date, loaded as the user scrolls) and the AI status grid; a click opens one in the query tab. */
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
  const h = useHistory();
  // A conversation opened from here shows Markdown: its renderer comes while the list loads.
  useEffect(() => void preloadMarkdown(), []);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ConversationSummary | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [renaming, setRenaming] = useState<ConversationSummary | null>(null);

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
      await h.remove(confirm.id);
      onDeleted(confirm.id);
    } catch {
      setError(t.deleteError);
    } finally {
      setDeleting(false);
      setConfirm(null);
    }
  }

  const typed = h.query.trim();
  return (
    <div className="history-layout">
      <section className="card" aria-labelledby="history-title">
        <h1 id="history-title">{t.title}</h1>
        <div className="history-search">
          <label htmlFor="history-search" className="sr-only">
            {td.searchLabel}
          </label>
          <input
            id="history-search"
            type="search"
            enterKeyHint="search"
            placeholder={td.searchPlaceholder}
            value={h.query}
            onChange={(e) => h.setQuery(e.target.value)}
          />
        </div>
        <ErrorAlert message={error} />
        {h.searching && h.items && (
          <p className="small muted" role="status">
            {h.items.length === 0 ? td.noResults(h.q) : td.results(h.items.length)}
          </p>
        )}
        {h.items === null ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> {fr.common.loading}
          </p>
        ) : h.items.length === 0 && !typed && !h.failed ? (
          <p className="muted">{t.empty}</p>
        ) : (
          <HistoryList
            items={h.items}
            grouped={!h.searching}
            hasMore={!!h.next && !h.failed}
            onNearEnd={() => void h.loadMore()}
            onOpen={(id) => void open(id)}
            onDelete={setConfirm}
            onRename={setRenaming}
          />
        )}
        {h.failed && (
          <div className="history-more">
            <ErrorAlert message={td.listError} />
            <button type="button" className="secondary small-button" onClick={() => void h.retry()}>
              {td.retry}
            </button>
          </div>
        )}
        {h.next && !h.failed && (
          <div className="history-more">
            {h.loadingMore ? (
              <p className="small muted" role="status">
                <span className="spinner" aria-hidden="true" /> {td.loadingMore}
              </p>
            ) : (
              <button type="button" className="secondary small-button" onClick={() => void h.loadMore()}>
                {td.loadMore}
              </button>
            )}
          </div>
        )}
      </section>
      <AiStatusGrid status={status} />
      {renaming && (
        <RenameDialog
          conversationId={renaming.id}
          title={conversationTitle(renaming)}
          onClose={() => setRenaming(null)}
          onRenamed={(title) => {
            h.renamed(renaming.id, title);
            setRenaming(null);
          }}
        />
      )}
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
