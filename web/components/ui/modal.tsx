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
}: {
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
  size?: "sm" | "md" | "lg";
  className?: string;
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
      <div className="modal-body">{children}</div>
    </Dialog>
  );
}
