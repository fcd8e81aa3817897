import { type ReactNode, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { PublicUser } from "../../lib/api-types.ts";
import { PlusIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import { blockFor, inputLocked } from "./chat-blocks.ts";
import type { ChatMessage } from "../../lib/api-types.ts";
import { Composer } from "./composer.tsx";
import { ExportButtons } from "./export-buttons.tsx";
import { ConversationActions } from "../sharing/conversation-actions.tsx";
import { preloadMarkdown } from "./markdown.tsx";
import { MessageDetail } from "./message-detail.tsx";
import { SteeredMessages, StopOverComposer } from "./steer/steered-messages.tsx";
import { LiveRun } from "./live/live-run.tsx";
import { ModelList } from "./model-list.tsx";
import { NoticeBox } from "./notice-box.tsx";
import { ProgressBar } from "./progress-bar.tsx";
import type { AiStatusValue } from "./use-ai-status.ts";
import type { ChatState } from "./use-chat.ts";
import { useWebSearch } from "./web-search/use-web-search.ts";

const t = fr.chat;

/** The new-query tab: the big question box and the models, or the conversation under way (docs/PRODUCT.md#chat-screen). */
export function ChatView({
  chat,
  status,
  user,
  onPricing,
  aside,
  dock = null,
}: {
  chat: ChatState;
  status: AiStatusValue;
  user: PublicUser;
  onPricing(): void;
  aside?: ReactNode;
  /** The fixed bottom dock's slot: the reply box lives there, always on screen. */
  dock?: HTMLElement | null;
}) {
  const [detail, setDetail] = useState<ChatMessage | null>(null);
  // The question being edited (« Modifier », or the declined council's notice, which edits the last question).
  const [editing, setEditing] = useState<number | null>(null);
  const lastQuestion = chat.messages.findLast((m) => m.sender === "user");
  const webSearch = useWebSearch(user.id, status.webSearch);
  const endRef = useRef<HTMLDivElement>(null);
  const locked = inputLocked(user);
  // What both question boxes share: the start screen's and the conversation's reply box.
  const composing = { onSend: chat.send, disabled: locked, busy: chat.busy, webSearch };
  const started = chat.messages.length > 0;
  // A locked box says why, before the user tries (docs/PRODUCT.md#chat-blocks).
  const notice = chat.notice ?? (locked ? blockFor(user, status.available, status.loaded) : null);

  const listRef = useRef<HTMLOListElement>(null);
  const last = chat.messages.at(-1);

  // A new answer is shown from its start (its first line under the header); while waiting, the end stays in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message, the busy state or the live run changes, not on every render.
  useEffect(() => {
    if (last && last.sender !== "user" && !chat.busy) {
      const item = listRef.current?.lastElementChild;
      item?.scrollIntoView?.({ block: "start", behavior: "smooth" });
    } else {
      endRef.current?.scrollIntoView?.({ block: "end", behavior: "smooth" });
    }
  }, [last?.id, chat.busy, chat.live?.models.length, chat.live?.synthesisBy, chat.live?.failed]);

  if (!started) {
    return (
      <div className="start-layout" key="start">
        <section className="card hero-card" aria-labelledby="ask-title" onFocusCapture={() => void preloadMarkdown()}>
          <h1 id="ask-title">{t.heroTitle}</h1>
          <p className="muted">{t.heroText}</p>
          {notice && <NoticeBox notice={notice} onPricing={onPricing} />}
          <Composer large {...composing} label={t.questionLabel} placeholder={t.placeholder} submitLabel={t.launch} />
        </section>
        <div className="start-aside">
          <ModelList status={status} />
          {aside}
        </div>
      </div>
    );
  }

  const reply = (
    <StopOverComposer chat={chat}>
      <Composer {...composing} label={t.replyLabel} placeholder={t.replyPlaceholder} submitLabel={t.send} />
    </StopOverComposer>
  );
  return (
    // Its own key: the conversation is a new box, not the start screen's box moved (which counts as a layout shift).
    <div className="conversation" key="conversation">
      <h1 className="sr-only">{t.conversationTitle}</h1>
      <div className="conversation-bar">
        <button type="button" className="secondary" onClick={chat.reset}>
          <PlusIcon size={16} /> {t.newQuestion}
        </button>
        {/* In place, hidden, before the first question's id is known: arriving with it, they pushed the list down (a layout shift). */}
        <div className="conversation-tools" style={chat.conversationId === null ? { visibility: "hidden" } : undefined} inert={chat.conversationId === null}>
          <ConversationActions conversationId={chat.conversationId ?? 0} />
          <ExportButtons conversationId={chat.conversationId ?? 0} />
        </div>
      </div>
      <ol className="message-list" ref={listRef} aria-live="polite" aria-busy={chat.busy}>
        <SteeredMessages chat={chat} onOpen={setDetail} editing={editing} setEditing={setEditing} />
        {chat.live && (
          <LiveRun
            state={chat.live}
            onRetry={chat.retry}
            onEdit={lastQuestion && lastQuestion.id > 0 && !chat.busy ? () => setEditing(lastQuestion.id) : undefined}
          />
        )}
        {chat.busy && !chat.progress && !chat.live && (
          <li className="message from-assistant typing" aria-label={t.thinking}>
            <span className="dots" aria-hidden="true">
              <i />
              <i />
              <i />
            </span>{" "}
            <span className="muted small">{t.thinking}</span>
          </li>
        )}
      </ol>
      <ProgressBar progress={chat.progress} />
      {notice && <NoticeBox notice={notice} onPricing={onPricing} />}
      <div ref={endRef} className="conversation-end" />
      {dock ? createPortal(reply, dock) : reply}
      {detail && <MessageDetail message={detail} onClose={() => setDetail(null)} />}
    </div>
  );
}
