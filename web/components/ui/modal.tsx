import { type ReactNode, useId } from "react";
import { fr } from "../../i18n/fr.ts";
import { Dialog } from "./dialog.tsx";
import { CloseIcon } from "./icons.tsx";

/** A dialog with a title bar and a close button (legal pages, contact, message detail...). */
export function Modal({
  title,
  onClose,
  children,
  size = "md",
  className = "",
  readable = false,
}: {
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
  size?: "sm" | "md" | "lg";
  className?: string;
  /**
   * A body of text with nothing to focus in it (legal pages, an enlarged answer): its scrolling body is a
   * focusable region, so the keyboard scrolls it (arrows, Page Down; axe scrollable-region-focusable).
   */
  readable?: boolean;
}) {
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={onClose} className={`modal-${size} ${className}`}>
      <div className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label={fr.common.close} onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      {readable ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region of text must take focus to be scrolled from the keyboard.
        <div className="modal-body" role="region" aria-labelledby={titleId} tabIndex={0}>
          {children}
        </div>
      ) : (
        <div className="modal-body">{children}</div>
      )}
    </Dialog>
  );
}
