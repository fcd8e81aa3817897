import { useEffect, useState } from "react";
import type { UserDetail } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { frDateTime } from "../../lib/format.ts";
import { fetchUserDetail } from "./admin.api.ts";

const t = fr.admin.edit;

/**
 * The account's billing record in the admin's edit dialog (issue 12): who
 * changed its plan or balances and why (refunds, disputes, duplicates,
 * reconciliation, operators), newest first, and the Stripe subscription.
 */
export function BillingHistory({ userId }: { userId: number }) {
  const [detail, setDetail] = useState<UserDetail | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetchUserDetail(userId)
      .then((d) => live && setDetail(d))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [userId]);

  if (failed) return <p className="admin-history-note">{t.historyError}</p>;
  if (!detail) return null;
  return (
    <section className="admin-history" aria-label={t.history}>
      <h3>{t.history}</h3>
      {detail.stripe_subscription_id && <p className="admin-history-note">{t.subscription.replace("{id}", detail.stripe_subscription_id)}</p>}
      {detail.billing_history.length === 0 ? (
        <p className="admin-history-note">{t.historyEmpty}</p>
      ) : (
        <ul>
          {detail.billing_history.map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered, whose entries carry no id.
            <li key={i}>
              <time dateTime={h.at}>{frDateTime(h.at)}</time> · <span className="admin-history-actor">{h.actor}</span>
              <div>{h.detail}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
