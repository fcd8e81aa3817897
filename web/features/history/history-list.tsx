import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { PaperclipIcon, PencilIcon, TrashIcon } from "../../components/ui/icons.tsx";
import { frAttach } from "../../i18n/fr-attach.ts";
import { frSharing } from "../../i18n/fr-sharing.ts";
import { fr } from "../../i18n/fr.ts";
import { relativeTime } from "../../lib/format.ts";
import { type HistoryRow, historyRows } from "./history-groups.ts";
import type { ConversationSummary } from "../../lib/api-types.ts";
import { conversationTitle } from "./use-history.ts";

const t = fr.history;
/** Load the next page when the last drawn row is this close to the end. */
const PREFETCH_ROWS = 15;

/**
 * The conversations under their date headings, virtualised against the page's
 * own scroll: only the rows near the screen are in the DOM, so a history of
 * thousands costs what a screenful costs. Scrolling near the end asks for more.
 */
export function HistoryList({
  items,
  grouped,
  hasMore,
  onNearEnd,
  onOpen,
  onDelete,
  onRename,
}: {
  items: ConversationSummary[];
  grouped: boolean;
  hasMore: boolean;
  onNearEnd(): void;
  onOpen(id: number): void;
  onDelete(c: ConversationSummary): void;
  onRename(c: ConversationSummary): void;
}) {
  const rows = useMemo(() => historyRows(items, new Date(), grouped), [items, grouped]);
  const listRef = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState(0);
  // Where the list starts in the page: the virtualizer counts window scroll from there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the layout above the list changes (grouping, empty list).
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el) setOffset(el.getBoundingClientRect().top + window.scrollY);
  }, [grouped, items.length === 0]);

  const estimate = (i: number) => (rows[i]?.kind === "group" ? 40 : 86);
  const v = useWindowVirtualizer({
    count: rows.length,
    estimateSize: estimate,
    // A row with no layout (not yet laid out, or a DOM without layout) keeps its estimate rather than collapsing to 0.
    measureElement: (el) => el.getBoundingClientRect().height || estimate(Number((el as HTMLElement).dataset.index)),
    overscan: 6,
    scrollMargin: offset,
    getItemKey: (i) => rowKey(rows[i]!),
  });
  const drawn = v.getVirtualItems();
  const last = drawn.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasMore && last >= rows.length - PREFETCH_ROWS) onNearEnd();
  }, [hasMore, last, rows.length, onNearEnd]);

  return (
    <div ref={listRef} className="history-list" style={{ height: v.getTotalSize(), position: "relative" }}>
      {drawn.map((d) => {
        const row = rows[d.index]!;
        return (
          <div
            key={d.key}
            data-index={d.index}
            ref={v.measureElement}
            className="history-row"
            style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${d.start - v.options.scrollMargin}px)` }}
          >
            {row.kind === "group" ? (
              <h2 className="history-group">{row.label}</h2>
            ) : (
              <HistoryItem c={row.item} onOpen={onOpen} onDelete={onDelete} onRename={onRename} />
            )}
          </div>
        );
      })}
    </div>
  );
}

function rowKey(row: HistoryRow): string {
  return row.kind === "group" ? `g-${row.key}` : `c-${row.item.id}`;
}

function HistoryItem({
  c,
  onOpen,
  onDelete,
  onRename,
}: {
  c: ConversationSummary;
  onOpen(id: number): void;
  onDelete(c: ConversationSummary): void;
  onRename(c: ConversationSummary): void;
}) {
  const title = conversationTitle(c);
  return (
    <div className="history-item">
      <button type="button" className="history-open" onClick={() => onOpen(c.id)}>
        <strong className="history-title">{title}</strong>
        {c.first_message && <span className="history-first muted">{c.first_message}</span>}
        <span className="history-meta small muted">
          {t.messages(c.message_count)} · {relativeTime(c.updated_at)}
          {c.attachment_count > 0 && (
            <>
              {" "}
              <span className="history-files">
                <PaperclipIcon size={14} /> {frAttach.historyFiles(c.attachment_count)}
              </span>
            </>
          )}
          {c.shared && (
            <>
              {" "}
              <span className="history-shared" title={frSharing.history.sharedLabel}>
                {frSharing.history.shared}
              </span>
            </>
          )}
        </span>
      </button>
      <button type="button" className="icon-button history-rename" aria-label={frSharing.rename.label(title)} onClick={() => onRename(c)}>
        <PencilIcon />
      </button>
      <button type="button" className="icon-button danger history-delete" aria-label={t.deleteLabel(title)} onClick={() => onDelete(c)}>
        <TrashIcon />
      </button>
    </div>
  );
}
