import { type ReactNode, useId } from "react";
import { Dialog } from "../../components/ui/dialog.tsx";

/** A yes/no dialog; extra fields (a reason) go in `children`. Cancel is focused first: the safe choice. */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  cancelLabel,
  busy = false,
  danger = false,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <Dialog sheet labelledBy={`${id}-title`} onClose={onCancel} className="u-confirm">
      <h2 id={`${id}-title`}>{title}</h2>
      <p>{text}</p>
      {children}
      <div className="u-actions">
        <button type="button" className="u-btn-outline" data-autofocus onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? "u-btn-danger" : "primary"} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
