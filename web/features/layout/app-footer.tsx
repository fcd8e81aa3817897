import { fr } from "../../i18n/fr.ts";
import { frData } from "../../i18n/fr-data.ts";
import { LEGAL_PAGES, type LegalPage } from "../legal/legal-pages.ts";

const t = fr.footer;

/** The four legal pages (in a modal), the contact form and the version label (docs/PRODUCT.md#footer). */
export function AppFooter({ onLegal, onContact, onAccount }: { onLegal(page: LegalPage): void; onContact(): void; onAccount?(): void }) {
  return (
    <footer className="app-footer">
      <nav aria-label={t.legalNav}>
        {LEGAL_PAGES.map((p) => (
          <button key={p} type="button" className="link-muted" onClick={() => onLegal(p)}>
            {t[p]}
          </button>
        ))}
        <button type="button" className="link-muted" onClick={onContact}>
          {t.contact}
        </button>
        {onAccount && (
          <button type="button" className="link-muted" onClick={onAccount}>
            {frData.account.open}
          </button>
        )}
      </nav>
      <span className="muted small">
        {fr.brand.name} · {t.version(fr.brand.version)}
      </span>
    </footer>
  );
}
