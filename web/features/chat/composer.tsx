import { type ClipboardEvent, type KeyboardEvent, useState } from "react";
import { SendIcon } from "../../components/ui/icons.tsx";
import { frAttach } from "../../i18n/fr-attach.ts";
import { AttachButton } from "./attachments/attach-button.tsx";
import { ChipList, PendingChip } from "./attachments/attachment-chip.tsx";
import type { AttachmentLimits, MessageAttachment } from "./attachments/attachment-rules.ts";
import { AttachmentErrors } from "./attachments/attachment-errors.tsx";
import { useAttachmentLimits } from "./attachments/use-attachment-limits.ts";
import { useAttachments } from "./attachments/use-attachments.ts";
import { useDropZone } from "./attachments/use-drop-zone.ts";
import type { WebSearchChoice } from "./web-search/use-web-search.ts";
import { WebSearchToggle } from "./web-search/web-search-toggle.tsx";

/**
 * The question box: Enter sends, Shift+Enter breaks the line (docs/PRODUCT.md#chat-screen).
 * Files come by the paperclip, a drop or a pasted image, and upload at once;
 * sending waits for them. The text and files are cleared only when the
 * message was taken, so a refusal keeps them.
 */
export function Composer({
  onSend,
  disabled,
  busy,
  label,
  placeholder,
  submitLabel,
  large = false,
  limits: given,
  webSearch,
}: {
  onSend(text: string, attachments: MessageAttachment[], webSearch: boolean): Promise<boolean>;
  disabled: boolean;
  busy: boolean;
  label: string;
  placeholder: string;
  submitLabel: string;
  large?: boolean;
  /** The server's limits by default (GET /api/attachment-limits). */
  limits?: AttachmentLimits;
  /** The « Recherche web » switch (issue 45); absent or unavailable: not shown, never asked. */
  webSearch?: WebSearchChoice;
}) {
  const served = useAttachmentLimits();
  const limits = given ?? served.limits;
  const [text, setText] = useState("");
  const files = useAttachments(limits);
  const drop = useDropZone(files.add, !disabled);
  const blocked = disabled || busy || files.uploading || !text.trim();

  async function submit() {
    if (blocked) return;
    const sent = text;
    setText("");
    const taken = await onSend(sent, files.stored, webSearch?.on ?? false);
    if (taken) files.clear();
    else setText((now) => (now === "" ? sent : now));
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  }

  // A pasted image (a screenshot) is attached; pasted text stays text.
  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    const pasted = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith("image/"));
    if (pasted.length === 0) return;
    e.preventDefault();
    files.add(pasted);
  }

  const id = large ? "question" : "reply";
  return (
    <form
      className={`composer${large ? " large" : ""}${drop.over ? " drop-over" : ""}`}
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      {...drop.handlers}
      onFocusCapture={served.load}
      onDragEnterCapture={served.load}
    >
      {drop.over && (
        <p className="drop-hint" aria-hidden="true">
          {frAttach.dropHere}
        </p>
      )}
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        value={text}
        rows={large ? 5 : 1}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      {files.files.length > 0 && (
        <ChipList label={frAttach.chips}>
          {files.files.map((f) => (
            <PendingChip key={f.key} file={f} onRemove={() => files.remove(f.key)} />
          ))}
        </ChipList>
      )}
      <AttachmentErrors errors={files.errors} onDismiss={files.dismissErrors} />
      <div className="composer-actions">
        <AttachButton limits={limits} disabled={disabled} onFiles={files.add} />
        {webSearch && <WebSearchToggle choice={webSearch} disabled={disabled} />}
        <button type="submit" className="primary" disabled={blocked} title={files.uploading ? frAttach.waitUploads : undefined}>
          <SendIcon /> <span>{submitLabel}</span>
        </button>
      </div>
    </form>
  );
}
