import { afterEach, describe, expect, jest, test } from "bun:test";
import type { PublicUser } from "../../src/users/users.view.ts";
import { appendMessages, insertConversation } from "../../src/chat/chat.queries.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { routeFetchTo, useDom } from "./dom.ts";
import { act, fireEvent, render, within } from "./rtl.ts";

useDom();
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  jest.useRealTimers();
});

const base: PublicUser = {
  id: 1,
  first_name: "Ana",
  last_name: "Roy",
  email: "ana@example.fr",
  subscription_type: "trial",
  remaining_queries: 5,
  trial_days_remaining: 7,
  is_admin: false,
  created_at: "2025-11-01T00:00:00.000Z",
};

describe("quota badge", () => {
  test("texts and colours of docs/PRODUCT.md#quota-badge", async () => {
    const { quotaBadge } = await import("../../web/features/layout/quota-badge.tsx");
    expect(quotaBadge({ ...base, subscription_type: "pro", remaining_queries: 30 })).toEqual({ text: "30/30 Pro", level: "ok", warning: null });
    // Extra requests beyond the allowance: never "130/30 Pro".
    expect(quotaBadge({ ...base, subscription_type: "pro", remaining_queries: 130 })).toEqual({
      text: "130 requêtes Pro",
      level: "ok",
      warning: null,
      title: "130 requêtes disponibles : le forfait Pro et vos requêtes supplémentaires",
    });
    expect(quotaBadge({ ...base, subscription_type: "basic", remaining_queries: 11 }).text).toBe("11 requêtes Basic");
    expect(quotaBadge({ ...base, subscription_type: "basic", remaining_queries: 3 })).toEqual({
      text: "3/10 Basic",
      level: "warning",
      warning: "Plus que 3 requête(s) !",
    });
    expect(quotaBadge({ ...base, subscription_type: "basic", remaining_queries: 0 }).level).toBe("danger");
    expect(quotaBadge({ ...base, subscription_type: "expired", remaining_queries: 0 })).toEqual({ text: "Expiré", level: "danger", warning: null });
    expect(quotaBadge({ ...base, remaining_queries: 5, trial_days_remaining: 7 })).toEqual({ text: "5 • 7j", level: "ok", warning: null });
    const ending = quotaBadge({ ...base, remaining_queries: 5, trial_days_remaining: 2 });
    expect(ending.level).toBe("warning");
    expect(ending.warning).toBe("Votre essai se termine dans 2 jours");
  });
});

describe("header: the plan pill and the quota badge never say the same thing twice", () => {
  const status = { loaded: true, operational: true, available: 6, total: 6 } as const;
  async function header(user: PublicUser) {
    const { AppHeader } = await import("../../web/features/layout/app-header.tsx");
    const view = render(<AppHeader user={user} status={status as never} onAdmin={() => {}} onPricing={() => {}} onLogout={() => {}} />);
    const text = view.container.textContent ?? "";
    view.unmount();
    return text;
  }

  test("an expired user reads « Expiré » once (a trial that spent its requests on day 1 too)", async () => {
    expect((await header({ ...base, subscription_type: "expired", remaining_queries: 0, trial_days_remaining: 0 })).match(/expiré/gi)).toHaveLength(1);
    expect((await header({ ...base, subscription_type: "expired", remaining_queries: 0, trial_days_remaining: 6 })).match(/expiré/gi)).toHaveLength(1);
  });

  test("an admin's header shows no plan pill at all (an admin has no plan to show: no ESSAI, no EXPIRÉ)", async () => {
    expect(await header({ ...base, subscription_type: "expired", remaining_queries: 0, is_admin: true })).not.toMatch(/expiré/i);
    expect(await header({ ...base, subscription_type: "trial", is_admin: true })).not.toMatch(/essai/i);
  });
});

describe("referral banner", () => {
  test("basic/pro: share the code; others: subscribe; hidden for admins; dismissal remembered", async () => {
    const { ReferralBanner } = await import("../../web/features/referral/referral-banner.tsx");
    const seen: string[] = [];
    const props = { onSeeCode: () => seen.push("code"), onSubscribe: () => seen.push("plans") };
    const a = render(<ReferralBanner user={{ ...base, subscription_type: "pro" }} {...props} />);
    const q = within(document.body);
    expect(q.getByText(/gagnez \+10 requêtes/)).toBeTruthy();
    fireEvent.click(q.getByRole("button", { name: "Voir mon code" }));
    a.unmount();
    const b = render(<ReferralBanner user={base} {...props} />);
    fireEvent.click(q.getByRole("button", { name: "Voir les forfaits" }));
    expect(seen).toEqual(["code", "plans"]);
    fireEvent.click(q.getByRole("button", { name: "Masquer le bandeau" }));
    expect(q.queryByRole("complementary")).toBeNull();
    b.unmount();
    render(<ReferralBanner user={base} {...props} />);
    expect(q.queryByRole("complementary")).toBeNull(); // remembered
    localStorage.clear();
    const c = render(<ReferralBanner user={{ ...base, is_admin: true }} {...props} />);
    expect(c.container.innerHTML).toBe("");
  });
});

describe("keep-alive", () => {
  test("warmup at start and when the tab is visible again; health every 6 min, every 18 min after 30 min idle; stop ends it", async () => {
    const { startKeepAlive } = await import("../../web/features/keepalive/keep-alive.ts");
    jest.useFakeTimers();
    const calls: string[] = [];
    const target = new EventTarget() as EventTarget & { visibilityState: string };
    target.visibilityState = "visible";
    const stop = startKeepAlive({
      health: async () => void calls.push("health"),
      warmup: async () => void calls.push("warmup"),
      target: target as unknown as Document,
    });
    expect(calls).toEqual(["warmup"]);
    jest.advanceTimersByTime(6 * 60_000);
    expect(calls).toEqual(["warmup", "health"]);
    jest.advanceTimersByTime(24 * 60_000); // 30 min without activity
    expect(calls.filter((c) => c === "health").length).toBe(5);
    jest.advanceTimersByTime(6 * 60_000); // now idle: the next ping waits 18 min
    expect(calls.filter((c) => c === "health").length).toBe(5);
    jest.advanceTimersByTime(12 * 60_000);
    expect(calls.filter((c) => c === "health").length).toBe(6);
    target.dispatchEvent(new Event("visibilitychange"));
    expect(calls.at(-1)).toBe("warmup");
    jest.advanceTimersByTime(6 * 60_000); // activity brought back the 6-minute rhythm
    expect(calls.filter((c) => c === "health").length).toBe(7);
    stop();
    jest.advanceTimersByTime(60 * 60_000);
    expect(calls.filter((c) => c === "health").length).toBe(7);
  });
});

describe("install banner", () => {
  test("iOS/Android only, after 3 s, dismissal remembered 24 h", async () => {
    const { InstallBanner, mobilePlatform } = await import("../../web/features/install/install-banner.tsx");
    expect(mobilePlatform("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)")).toBe("ios");
    expect(mobilePlatform("Mozilla/5.0 (Linux; Android 14; Pixel 8)")).toBe("android");
    expect(mobilePlatform("Mozilla/5.0 (X11; Linux x86_64)")).toBeNull();
    Object.defineProperty(navigator, "userAgent", { configurable: true, value: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)" });
    jest.useFakeTimers();
    const a = render(<InstallBanner />);
    const q = within(document.body);
    act(() => jest.advanceTimersByTime(2999));
    expect(q.queryByText("Installer Unisson")).toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(q.getByText("Installer Unisson")).toBeTruthy();
    fireEvent.click(q.getByRole("button", { name: "Plus tard" }));
    a.unmount();
    const b = render(<InstallBanner />);
    act(() => jest.advanceTimersByTime(3000));
    expect(q.queryByText("Installer Unisson")).toBeNull();
    b.unmount();
    act(() => jest.advanceTimersByTime(24 * 3600_000));
    render(<InstallBanner />);
    act(() => jest.advanceTimersByTime(3000));
    expect(q.getByText("Installer Unisson")).toBeTruthy();
  });
});

describe("contact dialog", () => {
  test("submit disabled until filled; sending, success closes after 2 s", async () => {
    const t = await createTestApp();
    restore = routeFetchTo(t.app);
    const { ContactDialog } = await import("../../web/features/contact/contact-dialog.tsx");
    let closed = 0;
    jest.useFakeTimers();
    render(<ContactDialog onClose={() => closed++} />);
    const q = within(document.body);
    const submit = q.getByRole("button", { name: "Envoyer" });
    expect(submit.hasAttribute("disabled")).toBe(true);
    fireEvent.change(q.getByLabelText("Nom"), { target: { value: "Ana Roy" } });
    fireEvent.change(q.getByLabelText("Email"), { target: { value: "ana@example.fr" } });
    fireEvent.change(q.getByLabelText("Sujet"), { target: { value: "Question" } });
    expect(submit.hasAttribute("disabled")).toBe(true);
    fireEvent.change(q.getByLabelText("Message"), { target: { value: "Bonjour" } });
    expect(submit.hasAttribute("disabled")).toBe(false);
    fireEvent.click(submit);
    expect(q.getByRole("button", { name: "Envoi…" })).toBeTruthy();
    // The in-process server answers through promises only: flush them, no timer needed.
    for (let i = 0; i < 100 && !q.queryByText(/Votre message a bien été envoyé/); i++) await act(async () => {});
    expect(q.getByText(/Votre message a bien été envoyé/)).toBeTruthy();
    act(() => jest.advanceTimersByTime(1999));
    expect(closed).toBe(0);
    act(() => jest.advanceTimersByTime(1));
    expect(closed).toBe(1);
  });
});

describe("history", () => {
  test("lists conversations (title, first message, count, relative time), loads one, deletes with confirmation", async () => {
    const t = await createTestApp();
    restore = routeFetchTo(t.app);
    const { user, token } = await makeUser(t.db, t.clock.now());
    localStorage.setItem("unisson_token", token);
    const conv = await insertConversation(t.db, user.id, "Capitale de la France", t.clock.now());
    await appendMessages(t.db, conv.id, [{ sender: "user", messageType: null, content: "Quelle est la capitale de la France ?" }], t.clock.now());
    const { HistoryView } = await import("../../web/features/history/history-view.tsx");
    const opened: number[] = [];
    const deleted: number[] = [];
    const status = {
      models: [],
      aiStatus: [
        { name: "GPT-4", available: true },
        { name: "Sonar Pro", available: false },
      ],
      operational: true,
      loaded: true,
      available: 1,
      total: 2,
      refresh: async () => {},
    };
    render(<HistoryView status={status} onOpen={async (id) => void opened.push(id)} onDeleted={(id) => deleted.push(id)} />);
    const q = within(document.body);
    await q.findByText("Capitale de la France");
    expect(q.getByText("Quelle est la capitale de la France ?")).toBeTruthy();
    expect(q.getByText(/1 message · /)).toBeTruthy();
    expect(q.getByText("Indisponible")).toBeTruthy();
    fireEvent.click(q.getByText("Capitale de la France"));
    await act(async () => {});
    expect(opened).toEqual([conv.id]);
    fireEvent.click(q.getByRole("button", { name: "Supprimer la conversation « Capitale de la France »" }));
    const dialog = q.getByRole("dialog", { name: "Supprimer la conversation ?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Supprimer" }));
    await q.findByText("Aucune conversation pour le moment. Posez votre première question !");
    expect(deleted).toEqual([conv.id]);
  });
});
