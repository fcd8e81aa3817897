import { fr } from "../../i18n/fr.ts";

export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <div className={`brand${compact ? " compact" : ""}`}>
      <span className="brand-mark" aria-hidden="true" />
      <span className="brand-name">{fr.brand.name}</span>
    </div>
  );
}
