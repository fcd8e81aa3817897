// First: the DOM must exist before react-dom loads.
import { flush, retype, type Routed, routeFetch, signIn, useDom } from "./pricing-harness.ts";
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, fireEvent, render, waitFor, within } from "@testing-library/react";
import { noteBillingChange } from "../../src/billing/entitlements.ts";
import { insertAiCall } from "../../src/ai/ai-calls.queries.ts";
import { AdminPanel } from "../../web/features/admin/admin-panel.tsx";
import { AppHeader } from "../../web/features/layout/app-header.tsx";
import { toInt, validateUserForm } from "../../web/features/admin/admin-validation.ts";
import { fr } from "../../web/i18n/fr.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";

useDom();
const t = fr.admin;
const body = () => within(document.body);

let ctx: TestApp;
let net: Routed;
beforeEach(async () => {
  ctx = await createTestApp();
  net = routeFetch(ctx.app);
});
afterEach(() => net.restore());

async function admin() {
  const { user, token } = await makeUser(ctx.db, ctx.clock.now(), { subscriptionType: "pro", isAdmin: true, firstName: "Alice", lastName: "Admin" });
  return signIn(user, token, ctx.clock.now());
}

describe("edit form rules (docs/PRODUCT.md#admin-edit)", () => {
  const base = {
    first_name: " Léa ",
    last_name: " Roux ",
    email: " lea@example.fr ",
    subscription_type: "trial" as const,
    remaining_queries: " 4 ",
    trial_days_remaining: "3",
  };

  test("values are trimmed and numbers parsed as integers, falling back to 0", () => {
    const { errors, payload } = validateUserForm({ ...base, remaining_queries: "abc", trial_days_remaining: "2.7" });
    expect(errors).toEqual({});
    expect(payload).toEqual({
      first_name: "Léa",
      last_name: "Roux",
      email: "lea@example.fr",
      subscription_type: "trial",
      remaining_queries: 0,
      trial_days_remaining: 2,
    });
    expect(toInt("")).toBe(0);
    expect(toInt(" 12 ")).toBe(12);
  });

  test("each rule has its French message", () => {
    const { errors } = validateUserForm({
      ...base,
      first_name: "  ",
      last_name: "",
      email: "pas-un-email",
      remaining_queries: "-1",
      trial_days_remaining: "-2",
    });
    expect(errors).toEqual({
      first_name: "Le prénom est requis",
      last_name: "Le nom est requis",
      email: "Email invalide",
      remaining_queries: "Le nombre de requêtes ne peut pas être négatif",
      trial_days_remaining: "Le nombre de jours ne peut pas être négatif",
    });
    expect(validateUserForm({ ...base, email: " " }).errors.email).toBe("L'email est requis");
  });
});

describe("admin panel", () => {
  test("a non-admin sees the access-denied screen and no admin call is made", async () => {
    const { user, token } = await makeUser(ctx.db, ctx.clock.now());
    const me = signIn(user, token, ctx.clock.now());
    render(<AdminPanel user={me} onBack={() => {}} />);
    expect(await body().findByRole("heading", { name: t.deniedTitle })).toBeTruthy();
    expect(net.calls.filter((c) => c.includes("/api/admin"))).toEqual([]);
  });

  test("dashboard shows the stats and a bar per plan", async () => {
    const me = await admin();
    await makeUser(ctx.db, ctx.clock.now(), { subscriptionType: "basic" });
    await makeUser(ctx.db, ctx.clock.now());
    render(<AdminPanel user={me} onBack={() => {}} />);
    const chart = await body().findByRole("list", { name: t.stats.chartLabel });
    const rows = within(chart)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(rows).toEqual(["Essai1", "Basic1", "Pro1", "Expiré0"]);
    expect(body().getByText(t.stats.totalUsers, { selector: "dt" }).nextElementSibling?.textContent).toBe("3");
  });

  test("usage: models by their human names, days in French format (issue 32)", async () => {
    const me = await admin();
    const now = ctx.clock.now();
    const call = { userId: null, conversationId: null, outcome: "ok" as const, latencyMs: 120, tokensIn: 5, tokensOut: 1, costEur: 0.001, createdAt: now };
    await insertAiCall(ctx.db, { ...call, model: "omni-moderation-latest", provider: "openai", purpose: "moderation" });
    await insertAiCall(ctx.db, { ...call, model: "GPT-4", provider: "openai", purpose: "answer" });
    render(<AdminPanel user={me} onBack={() => {}} />);
    const perModel = await body().findByRole("table", { name: /Par modèle/ });
    const names = within(perModel)
      .getAllByRole("rowheader")
      .map((th) => th.textContent);
    expect(names.sort()).toEqual(["GPT-4", "Modération OpenAI"]);
    const days = within(body().getByRole("table", { name: /par jour/ }))
      .getAllByRole("rowheader")
      .map((th) => th.textContent);
    const d = now.toISOString().slice(0, 10).split("-");
    expect(days).toEqual([`${d[2]}/${d[1]}/${d[0]}`]);
  });

  test("the admin's header shows no plan pill (no ESSAI) and no quota badge", async () => {
    const { user, token } = await makeUser(ctx.db, ctx.clock.now(), { isAdmin: true, firstName: "Alice" });
    const me = signIn(user, token, ctx.clock.now());
    expect(me.subscription_type).toBe("trial");
    render(
      <AppHeader
        user={me}
        status={{ models: [], aiStatus: [], loaded: true, operational: true, available: 6, total: 6, refresh: async () => {} }}
        onAdmin={() => {}}
        onPricing={() => {}}
        onLogout={() => {}}
      />,
    );
    expect(document.querySelector(".plan-badge")).toBeNull();
    expect(body().queryByText("ESSAI")).toBeNull();
    expect(document.querySelector(".quota-badge")).toBeNull();
  });

  test("users: 10 a page, next disabled under 10 rows, search, no delete on one's own row", async () => {
    const me = await admin();
    for (let i = 0; i < 11; i++) await makeUser(ctx.db, ctx.clock.now(), { firstName: `Nom${i}` });
    render(<AdminPanel user={me} onBack={() => {}} />);
    fireEvent.click(await body().findByRole("tab", { name: t.tabs.users }));
    await waitFor(() => expect(body().getAllByRole("row")).toHaveLength(11)); // header + 10
    const next = body().getByRole("button", { name: t.users.next });
    expect((next as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(next);
    await waitFor(() => expect(body().getAllByRole("row")).toHaveLength(3)); // header + 2
    expect((body().getByRole("button", { name: t.users.next }) as HTMLButtonElement).disabled).toBe(true);
    const myRow = body()
      .getByRole("rowheader", { name: /Alice Admin/ })
      .closest("tr")!;
    expect(within(myRow as HTMLElement).queryByRole("button", { name: /Supprimer/ })).toBeNull();

    await retype(body().getByLabelText(t.users.search), "Nom7");
    fireEvent.click(body().getByRole("button", { name: t.users.searchButton }));
    await waitFor(() => expect(body().getAllByRole("row")).toHaveLength(2));
    expect(net.calls.at(-1)).toContain("q=Nom7");
  });

  test("edit: client rules block the save, the server's detail shows, success reloads", async () => {
    const me = await admin();
    const other = (await makeUser(ctx.db, ctx.clock.now(), { firstName: "Zoé", lastName: "Durand" })).user;
    const taken = (await makeUser(ctx.db, ctx.clock.now())).user;
    render(<AdminPanel user={me} onBack={() => {}} />);
    fireEvent.click(await body().findByRole("tab", { name: t.tabs.users }));
    fireEvent.click(await body().findByRole("button", { name: "Modifier Zoé Durand" }));
    const dialog = within(await body().findByRole("dialog"));
    const days = dialog.getByLabelText(/Jours d'essai restants/) as HTMLInputElement;
    expect(days.max).toBe("30"); // trial user: the field with its maximum
    await retype(dialog.getByLabelText("Prénom"), "  ");
    await retype(dialog.getByLabelText("Requêtes restantes"), "-3");
    const puts = () => net.calls.filter((c) => c.startsWith("PUT")).length;
    fireEvent.click(dialog.getByRole("button", { name: t.edit.save }));
    expect(await dialog.findByText(t.edit.firstNameRequired)).toBeTruthy();
    expect(dialog.getByText(t.edit.remainingNegative)).toBeTruthy();
    expect(puts()).toBe(0);

    await retype(dialog.getByLabelText("Prénom"), " Zoé ");
    await retype(dialog.getByLabelText("Requêtes restantes"), "25");
    await retype(dialog.getByLabelText("Email"), taken.email);
    fireEvent.click(dialog.getByRole("button", { name: t.edit.save }));
    expect((await dialog.findByRole("alert")).textContent).toBe("Un compte existe déjà avec cette adresse email.");
    // Changing the plan away from trial hides the trial-days field.
    fireEvent.change(dialog.getByLabelText("Forfait"), { target: { value: "basic" } });
    expect(dialog.queryByLabelText(/Jours d'essai restants/)).toBeNull();

    await retype(dialog.getByLabelText("Email"), other.email);
    fireEvent.click(dialog.getByRole("button", { name: t.edit.save }));
    expect(await body().findByText(t.edit.saved)).toBeTruthy();
    const row = body()
      .getByRole("rowheader", { name: /Zoé Durand/ })
      .closest("tr") as HTMLElement;
    expect(within(row).getByText("25")).toBeTruthy();
    expect(within(row).getByText("Basic")).toBeTruthy();
  });

  test("edit: a new e-mail is announced, before saving, as ending the user's sessions and API keys", async () => {
    const me = await admin();
    const other = (await makeUser(ctx.db, ctx.clock.now(), { firstName: "Zoé", lastName: "Durand" })).user;
    render(<AdminPanel user={me} onBack={() => {}} />);
    fireEvent.click(await body().findByRole("tab", { name: t.tabs.users }));
    fireEvent.click(await body().findByRole("button", { name: "Modifier Zoé Durand" }));
    const dialog = within(await body().findByRole("dialog"));
    const warning = "Changer l'email ferme toutes les sessions de cet utilisateur et révoque ses clés d'API.";
    expect(dialog.queryByText(warning)).toBeNull();
    await retype(dialog.getByLabelText("Email"), "nouvelle@example.fr");
    expect(dialog.getByText(warning)).toBeTruthy();
    await retype(dialog.getByLabelText("Email"), other.email);
    expect(dialog.queryByText(warning)).toBeNull();
  });

  test("edit shows the account's billing history: who changed what and why (issue 12)", async () => {
    const me = await admin();
    const other = (await makeUser(ctx.db, ctx.clock.now(), { firstName: "Zoé", lastName: "Durand", subscriptionType: "basic" })).user;
    await noteBillingChange(ctx.db, ctx.clock.now(), other.id, {
      actor: "stripe",
      action: "refund",
      detail: "Remboursement intégral (9,99 €) : achat marqué remboursé.",
      stripeRef: "ch_1",
    });
    render(<AdminPanel user={me} onBack={() => {}} />);
    fireEvent.click(await body().findByRole("tab", { name: t.tabs.users }));
    fireEvent.click(await body().findByRole("button", { name: "Modifier Zoé Durand" }));
    const history = within(await body().findByRole("region", { name: t.edit.history }));
    expect(await history.findByText("Remboursement intégral (9,99 €) : achat marqué remboursé.")).toBeTruthy();
    expect(history.getByText("stripe")).toBeTruthy();
  });

  test("delete asks first, then says so", async () => {
    const me = await admin();
    await makeUser(ctx.db, ctx.clock.now(), { firstName: "Paul", lastName: "Dupont" });
    render(<AdminPanel user={me} onBack={() => {}} />);
    fireEvent.click(await body().findByRole("tab", { name: t.tabs.users }));
    fireEvent.click(await body().findByRole("button", { name: "Supprimer Paul Dupont" }));
    const dialog = within(await body().findByRole("dialog"));
    fireEvent.click(dialog.getByRole("button", { name: t.remove.confirm }));
    expect(await body().findByText(t.remove.success)).toBeTruthy();
    await waitFor(() => expect(body().queryByRole("rowheader", { name: /Paul Dupont/ })).toBeNull());
  });

  test("401, 403 and other failures have their messages", async () => {
    const me = await admin();
    localStorage.setItem("unisson_token", "x".repeat(40)); // a session the server does not know
    const first = render(<AdminPanel user={me} onBack={() => {}} />);
    expect((await body().findByRole("alert")).textContent).toBe(t.errors.unauthorized);
    first.unmount();

    const plain = await makeUser(ctx.db, ctx.clock.now());
    localStorage.setItem("unisson_token", plain.token); // signed in, but not an admin on the server
    const second = render(<AdminPanel user={me} onBack={() => {}} />);
    expect((await body().findByRole("alert")).textContent).toBe(t.errors.forbidden);
    expect(body().getByRole("heading", { name: t.deniedTitle })).toBeTruthy(); // the server said no: access denied
    second.unmount();

    await admin();
    net.override((path) =>
      path.startsWith("/api/admin/users") ? Promise.resolve(Response.json({ detail: "Base indisponible" }, { status: 500 })) : undefined,
    );
    render(<AdminPanel user={me} onBack={() => {}} />);
    fireEvent.click(await body().findByRole("tab", { name: t.tabs.users }));
    expect((await body().findByRole("alert")).textContent).toBe(`${t.errors.users}Base indisponible`);
  });

  test("a missing token is retried once after 1 s, then reported", async () => {
    const me = await admin();
    localStorage.removeItem("unisson_token");
    jest.useFakeTimers();
    try {
      render(<AdminPanel user={me} onBack={() => {}} />);
      await flush();
      expect(body().queryByRole("alert")).toBeNull();
      await act(async () => {
        jest.advanceTimersByTime(1_000);
      });
      await flush();
      expect(body().getByRole("alert").textContent).toBe(t.errors.missingToken);
    } finally {
      jest.useRealTimers();
    }
  });
});
