import { type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";
import "./dialog.css";

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),textarea:not([disabled]),select:not([disabled]),[tabindex]:not([tabindex="-1"])';

/**
 * The one modal dialog mechanism: focus moves in on open and back on close,
 * Tab stays inside, Escape and a click on the backdrop close it. Keys are
 * handled on the dialog itself, so with a confirmation open over an overlay
 * Escape closes the innermost one only. `sheet` dialogs (pricing, payment,
 * admin) slide up from the bottom on phones; the others are centred.
 */
export function Dialog({
  labelledBy,
  onClose,
  className = "",
  sheet = false,
  children,
}: {
  labelledBy: string;
  onClose?: () => void;
  className?: string;
  sheet?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const box = ref.current;
    const first = box?.querySelector<HTMLElement>("[data-autofocus]") ?? box?.querySelector<HTMLElement>(FOCUSABLE) ?? box;
    first?.focus();
    document.body.classList.add("modal-open");
    return () => {
      if (!document.querySelector("[aria-modal='true']")) document.body.classList.remove("modal-open");
      previous?.focus?.();
    };
  }, []);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === "Escape" && onClose) {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== "Tab" || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const head = items[0];
    const tail = items[items.length - 1];
    if (!head || !tail) return;
    if (e.shiftKey && document.activeElement === head) {
      e.preventDefault();
      tail.focus();
    } else if (!e.shiftKey && document.activeElement === tail) {
      e.preventDefault();
      head.focus();
    }
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes for the mouse; Escape does it for the keyboard.
    <div className={sheet ? "u-backdrop" : "modal-backdrop"} onMouseDown={(e) => onClose && e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
        className={`${sheet ? "u-dialog" : "modal"} ${className}`}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>
  );
}
