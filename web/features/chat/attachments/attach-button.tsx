import { useRef } from "react";
import { PaperclipIcon } from "../../../components/ui/icons.tsx";
import { frAttach } from "../../../i18n/fr-attach.ts";
import { type AttachmentLimits, acceptAttribute } from "./attachment-rules.ts";

const t = frAttach;

/**
 * The paperclip: opens the file picker (several files; on a phone the
 * picker offers the camera, image types being accepted). The input itself
 * is hidden; the button is what the keyboard and screen readers reach.
 */
export function AttachButton({ limits, disabled, onFiles }: { limits: AttachmentLimits; disabled: boolean; onFiles(files: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="icon-button attach-button"
        aria-label={t.button}
        title={t.buttonHint(limits.perMessage, limits.maxMb)}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon size={20} />
      </button>
      <input
        ref={input}
        type="file"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        multiple
        accept={acceptAttribute(limits)}
        disabled={disabled}
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          e.target.value = ""; // the same file picked again after a removal is a change too
        }}
      />
    </>
  );
}
