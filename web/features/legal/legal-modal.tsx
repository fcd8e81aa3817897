import { Modal } from "../../components/ui/modal.tsx";
import { legalDocs } from "../../i18n/fr-legal.ts";
import type { LegalPage } from "./legal-pages.ts";

/** One of the four legal pages, in a modal (docs/PRODUCT.md#footer). */
export function LegalModal({ page, onClose }: { page: LegalPage; onClose(): void }) {
  const doc = legalDocs[page];
  return (
    <Modal title={doc.title} onClose={onClose} size="lg" readable>
      <article className="legal">
        <p className="muted small">{doc.updated}</p>
        {doc.sections.map((s) => (
          <section key={s.heading}>
            <h3>{s.heading}</h3>
            {s.paragraphs.map((para) => (
              <p key={para}>{para}</p>
            ))}
          </section>
        ))}
      </article>
    </Modal>
  );
}
