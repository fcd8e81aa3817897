import { GlobeIcon } from "../../../components/ui/icons.tsx";
import { frWebSearch as t } from "../../../i18n/fr-web.ts";
import type { WebSearchChoice } from "./use-web-search.ts";
import "./web-search.css";

/** The composer's « Recherche web » switch (a pressed button), shown only where the server offers web search. */
export function WebSearchToggle({ choice, disabled }: { choice: WebSearchChoice; disabled: boolean }) {
  if (!choice.available) return null;
  return (
    <button
      type="button"
      className={`web-search-toggle${choice.on ? " on" : ""}`}
      aria-pressed={choice.on}
      title={choice.on ? t.toggleOnHint : t.toggleOffHint}
      disabled={disabled}
      onClick={choice.toggle}
    >
      <GlobeIcon size={16} /> <span>{t.toggle}</span>
    </button>
  );
}
