import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Modal } from "../../components/ui/modal.tsx";
import { fr } from "../../i18n/fr.ts";
import { AccountDialog } from "../account/account-dialog.tsx";
import { AdminPanel } from "../admin/admin-panel.tsx";
import { inputLocked } from "../chat/chat-blocks.ts";
import { ChatView } from "../chat/chat-view.tsx";
import { useAiStatus } from "../chat/use-ai-status.ts";
import { useChat } from "../chat/use-chat.ts";
import { ContactDialog } from "../contact/contact-dialog.tsx";
import { HistoryTab, preloadHistory } from "../history/history-tab.tsx";
import { InstallBanner } from "../install/install-banner.tsx";
import { useKeepAlive } from "../keepalive/use-keep-alive.ts";
import type { LegalPage } from "../legal/legal-pages.ts";
import { PaymentReturn } from "../payment/payment-return.tsx";
import { PricingOverlay } from "../pricing/pricing-overlay.tsx";
import { ReferralBanner } from "../referral/referral-banner.tsx";
import { ReferralCard } from "../referral/referral-card.tsx";
import { useReferral } from "../referral/use-referral.ts";
import { useSignedInUser } from "../session/use-session.ts";
import { AppFooter } from "./app-footer.tsx";
import { AppHeader } from "./app-header.tsx";
import { BottomDock } from "./bottom-dock.tsx";
import { Tabs } from "./tabs.tsx";

const LegalModal = lazy(() => import("../legal/legal-modal.tsx").then((m) => ({ default: m.LegalModal })));

type Tab = "query" | "history";

/** The signed-in app (docs/PRODUCT.md#main-app): header, two tabs, footer, banners and overlays. Loaded lazily. */
export function AppShell({ paymentSessionId }: { paymentSessionId: string | null }) {
  const { user, refreshUser, logout } = useSignedInUser();
  const [view, setView] = useState<"app" | "admin">("app");
  const [tab, setTab] = useState<Tab>("query");
  const [pricing, setPricing] = useState(false);
  const [legal, setLegal] = useState<LegalPage | null>(null);
  const [contact, setContact] = useState(false);
  const [account, setAccount] = useState(false);
  const [codeOpen, setCodeOpen] = useState(false);
  const [payment, setPayment] = useState(paymentSessionId);
  const [dock, setDock] = useState<HTMLDivElement | null>(null);
  const status = useAiStatus();
  const referral = useReferral(user.id, user.subscription_type);
  useKeepAlive();

  // A stored user may be stale (plan changed, session revoked): check it once on entry; a 401 signs out.
  useEffect(() => {
    void refreshUser();
  }, [refreshUser]);

  const openPricing = () => setPricing(true);

  // A user who cannot ask (expired, or no request left) finds the pricing overlay open (docs/PRODUCT.md#chat-blocks):
  // on entry, and again whenever they become blocked (the last request spent). Closed, it stays closed until then.
  // Not over a payment being verified, and not for an admin (no plan to buy).
  const locked = inputLocked(user) && !user.is_admin;
  const wasLocked = useRef(false);
  useEffect(() => {
    if (locked && !wasLocked.current) {
      if (payment) return; // asked again once the verification closes, if still blocked
      setPricing(true);
    }
    wasLocked.current = locked;
  }, [locked, payment]);
  // Another tab starts at the top of the page, scrolled before it renders: the tabs stay put, nothing jumps.
  const showTab = (next: Tab) => {
    if (next !== tab) window.scrollTo?.({ top: 0 });
    setTab(next);
  };
  const chat = useChat({
    user,
    available: status.available,
    statusLoaded: status.loaded,
    onNeedPricing: openPricing,
    onAnswered: () => void refreshUser(),
  });

  if (view === "admin") return <AdminPanel user={user} onBack={() => setView("app")} />;

  const referralCard = referral?.has_code ? <ReferralCard info={referral} id="referral-card" /> : null;

  return (
    <div className="app">
      <AppHeader user={user} status={status} onAdmin={() => setView("admin")} onPricing={openPricing} onLogout={() => void logout()} />
      <main className="app-main">
        <Tabs<Tab>
          value={tab}
          onChange={showTab}
          onIntent={(next) => next === "history" && preloadHistory()}
          items={[
            { id: "query", label: fr.tabs.query },
            { id: "history", label: fr.tabs.history },
          ]}
        />
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
          {tab === "query" ? (
            <ChatView chat={chat} status={status} user={user} onPricing={openPricing} aside={referralCard} dock={dock} />
          ) : (
            <HistoryTab
              status={status}
              onOpen={async (id) => {
                await chat.load(id);
                showTab("query");
              }}
              onDeleted={chat.forget}
            />
          )}
        </div>
      </main>
      <AppFooter onLegal={setLegal} onContact={() => setContact(true)} onAccount={() => setAccount(true)} />
      <BottomDock
        onSlot={setDock}
        banner={<InstallBanner otherwise={<ReferralBanner user={user} onSeeCode={() => setCodeOpen(true)} onSubscribe={openPricing} />} />}
      />
      <PricingOverlay open={pricing} user={user} onClose={() => setPricing(false)} onUserRefresh={refreshUser} />
      {payment && <PaymentReturn sessionId={payment} onClose={() => setPayment(null)} onUserRefresh={refreshUser} />}
      {codeOpen && referral && (
        <Modal title={fr.referral.cardTitle} onClose={() => setCodeOpen(false)} size="sm">
          <ReferralCard info={referral} />
        </Modal>
      )}
      {contact && <ContactDialog initial={{ name: `${user.first_name} ${user.last_name}`.trim(), email: user.email }} onClose={() => setContact(false)} />}
      {account && <AccountDialog user={user} onClose={() => setAccount(false)} onDeleted={() => void logout(true)} />}
      {legal && (
        <Suspense fallback={null}>
          <LegalModal page={legal} onClose={() => setLegal(null)} />
        </Suspense>
      )}
    </div>
  );
}
