import { useEffect, useRef, useState } from "react";
import { Modal } from "../../components/ui/modal.tsx";
import { CheckIcon, CopyIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import type { ChatMessage } from "../../lib/api-types.ts";
import { FinalAnswer } from "./final-answer.tsx";
import { Markdown } from "./markdown.tsx";
import { StoppedAnswer } from "./steer/stopped-answer.tsx";

/** docs/PRODUCT.md#message-detail: the copy confirmation icon lasts 2 s. */
export const COPIED_MS = 2000;

/** An assistant message enlarged, with a copy button (docs/PRODUCT.md#message-detail). */
export function MessageDetail({ message, onClose }: { message: ChatMessage; onClose(): void }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(message.content);
    } catch {
      return; // clipboard refused (insecure origin, permissions): no false confirmation
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }

  return (
    <Modal title={fr.detail.title} onClose={onClose} size="lg" readable>
      <div className="detail-actions">
        <button type="button" className="secondary" onClick={() => void copy()} aria-live="polite">
          {copied ? <CheckIcon /> : <CopyIcon />} {copied ? fr.detail.copied : fr.detail.copy}
        </button>
      </div>
      <div className="detail-content">
        {message.message_type === "final_response" ? (
          <FinalAnswer message={message} />
        ) : message.message_type === "stopped_response" ? (
          <StoppedAnswer message={message} />
        ) : (
          <Markdown text={message.content} />
        )}
      </div>
    </Modal>
  );
}
