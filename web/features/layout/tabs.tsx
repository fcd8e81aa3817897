import { type KeyboardEvent, useRef } from "react";
import { fr } from "../../i18n/fr.ts";

/** ARIA tabs: arrow keys move between tabs, as screen-reader users expect. `onIntent`: a tab is about to be chosen (pointer over or down, focus). */
export function Tabs<T extends string>({
  value,
  onChange,
  onIntent,
  items,
}: {
  value: T;
  onChange(v: T): void;
  onIntent?(v: T): void;
  items: { id: T; label: string }[];
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  function onKey(e: KeyboardEvent, i: number) {
    const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!d) return;
    const next = (i + d + items.length) % items.length;
    onChange(items[next]!.id);
    refs.current[next]?.focus();
  }
  return (
    <div className="tabs" role="tablist" aria-label={fr.tabs.label}>
      {items.map((it, i) => (
        <button
          key={it.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          id={`tab-${it.id}`}
          type="button"
          role="tab"
          aria-selected={value === it.id}
          aria-controls={`panel-${it.id}`}
          tabIndex={value === it.id ? 0 : -1}
          className={`tab${value === it.id ? " active" : ""}`}
          onClick={() => onChange(it.id)}
          onPointerEnter={() => onIntent?.(it.id)}
          onPointerDown={() => onIntent?.(it.id)}
          onFocus={() => onIntent?.(it.id)}
          onKeyDown={(e) => onKey(e, i)}
        >
          {it.label}
        </button>
      ))}
    </div>
  );
}
