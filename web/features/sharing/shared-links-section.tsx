import { useCallback, useEffect, useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { fr } from "../../i18n/fr.ts";
import { frSharing } from "../../i18n/fr-sharing.ts";
import { errorText } from "../../lib/api.ts";
import { frLongDate } from "../../lib/format.ts";
import { ConfirmDialog } from "../pricing/confirm-dialog.tsx";
import { listShares, type PublicShare, revokeShare } from "./sharing.api.ts";
import "./sharing.css";

const t = frSharing.links;

/** « Liens partagés » in « Mon compte »: each read-only link the user made, and its revocation. */
export function SharedLinksSection() {
  const [shares, setShares] = useState<PublicShare[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<PublicShare | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setShares(await listShares());
    } catch (err) {
      setError(errorText(err, t.loadError));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function revoke(share: PublicShare) {
    setBusy(true);
    setError(null);
    try {
      await revokeShare(share.id);
      setShares((list) => list?.filter((s) => s.id !== share.id) ?? null);
    } catch (err) {
      setError(errorText(err, t.revokeError));
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  }

  return (
    <section className="account-section" aria-labelledby="account-shares-title">
      <h3 id="account-shares-title">{t.title}</h3>
      <p>{t.intro}</p>
      <ErrorAlert message={error} />
      {shares && shares.length === 0 && <p className="muted">{t.empty}</p>}
      {shares && shares.length > 0 && (
        <ul className="shared-link-list" aria-label={t.title}>
          {shares.map((s) => (
            <li key={s.id}>
              <div>
                <strong>{s.title}</strong> <code>{s.prefix}…</code>
                <p className="small muted">
                  {t.created(frLongDate(s.created_at))}
                  {s.include_models && ` · ${t.withModels}`}
                </p>
              </div>
              <button type="button" className="u-btn-danger" aria-label={t.revokeLabel(s.title)} disabled={busy} onClick={() => setRevoking(s)}>
                {t.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={t.revoke}
          text={t.revokeConfirm(revoking.title)}
          confirmLabel={t.revoke}
          cancelLabel={fr.common.cancel}
          danger
          busy={busy}
          onCancel={() => setRevoking(null)}
          onConfirm={() => void revoke(revoking)}
        />
      )}
    </section>
  );
}
