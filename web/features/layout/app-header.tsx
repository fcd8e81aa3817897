import type { PublicUser } from "../../lib/api-types.ts";
import { Brand } from "../../components/ui/brand.tsx";
import { LogoutIcon, ShieldIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import type { AiStatusValue } from "../chat/use-ai-status.ts";
import { QuotaBadge } from "./quota-badge.tsx";

const t = fr.header;

/** Plan, system status, available AIs, first name, admin or subscription button, logout (docs/PRODUCT.md#main-app). */
export function AppHeader({
  user,
  status,
  onAdmin,
  onPricing,
  onLogout,
}: {
  user: PublicUser;
  status: AiStatusValue;
  onAdmin(): void;
  onPricing(): void;
  onLogout(): void;
}) {
  const operational = !status.loaded || status.operational;
  return (
    <header className="app-header">
      <div className="header-inner">
        <Brand compact />
        <div className="header-status">
          {/* An admin has no plan to show (the account's own trial would read ESSAI); an expired user's badge already says « Expiré ». */}
          {!user.is_admin && user.subscription_type !== "expired" && (
            <span className={`plan-badge plan-${user.subscription_type}`}>{t.plans[user.subscription_type]}</span>
          )}
          <span className={`status-pill ${operational ? "ok" : "ko"}`}>
            <span className={`dot ${operational ? "ok" : "ko"}`} aria-hidden="true" />
            {operational ? (
              <>
                {/* "Opérationnel" on a phone: the header keeps to two rows. */}
                <span className="status-long">{t.operational}</span>
                <span className="status-short">{t.operationalShort}</span>
              </>
            ) : (
              t.maintenance
            )}
          </span>
          {/* Its room is kept before the count arrives, so the header does not move. */}
          <span className="ai-count muted small">{status.loaded ? t.aiCount(status.available, status.total) : "\u00a0"}</span>
        </div>
        <div className="header-user">
          {!user.is_admin && <QuotaBadge user={user} onClick={onPricing} />}
          <span className="hello">
            {/* The greeting where it fits; on a phone, the first name alone. */}
            <span className="hello-full">{t.hello(user.first_name)}</span>
            <span className="hello-name">{user.first_name}</span>
          </span>
          {user.is_admin ? (
            <button type="button" className="secondary" onClick={onAdmin}>
              <ShieldIcon size={16} /> <span>{t.admin}</span>
            </button>
          ) : (
            <button type="button" className="primary small-button" onClick={onPricing}>
              {t.subscription}
            </button>
          )}
          <button type="button" className="icon-button" onClick={onLogout} aria-label={t.logout} title={t.logout}>
            <LogoutIcon />
          </button>
        </div>
      </div>
    </header>
  );
}
