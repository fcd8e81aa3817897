import type { ReactNode } from "react";
import { fr } from "../../i18n/fr.ts";
import { ExpandIcon } from "../../components/ui/icons.tsx";
import { frDateTime } from "../../lib/format.ts";
import type { ChatMessage } from "../../lib/api-types.ts";
import { FinalAnswer } from "./final-answer.tsx";
import { Markdown } from "./markdown.tsx";
import { StoppedAnswer } from "./steer/stopped-answer.tsx";
import { MessageAttachments } from "./attachments/message-attachments.tsx";

const t = fr.chat;
const CLARIFY = new Set(["clarification", "mono_clarification"]);

/** One message: the user's plain text, or an assistant's answer, questions or refusal. Assistant messages enlarge on click. */
export function MessageItem({ message, onOpen, children }: { message: ChatMessage; onOpen(m: ChatMessage): void; children?: ReactNode }) {
  const mine = message.sender === "user";
  const type = message.message_type ?? "";
  return (
    <li className={`message ${mine ? "from-user" : "from-assistant"} type-${type || "text"}`}>
      <div className="message-head">
        <span className="message-author">{mine ? t.you : t.assistant}</span>
        <time dateTime={message.timestamp} className="muted small">
          {frDateTime(message.timestamp)}
        </time>
        {!mine && (
          <button type="button" className="icon-button" aria-label={t.enlarge} onClick={() => onOpen(message)}>
            <ExpandIcon size={16} />
          </button>
        )}
      </div>
      {mine ? (
        <>
          <p className="message-text">{message.content}</p>
          <MessageAttachments attachments={message.attachments ?? []} />
        </>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a shortcut for the mouse; the Enlarge button above is the keyboard's way.
        <div className="message-body" onClick={() => onOpen(message)}>
          {CLARIFY.has(type) && <p className="clarify-title">{t.clarifyTitle}</p>}
          {type === "content_moderation" && <p className="clarify-title danger">{t.errors.moderationTitle}</p>}
          {type === "final_response" ? (
            <FinalAnswer message={message} />
          ) : type === "stopped_response" ? (
            <StoppedAnswer message={message} />
          ) : (
            <Markdown text={message.content} />
          )}
          {CLARIFY.has(type) && <p className="muted small">{t.clarifyHint}</p>}
        </div>
      )}
      {children}
    </li>
  );
}
