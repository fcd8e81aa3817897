import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { shownCouncil } from "../../src/council/council-runtime.ts";
import { toPublicUser } from "../../src/users/users.view.ts";
import { type FakeProviders, startFakeProviders } from "../fakes/ai/index.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { routeFetchTo, serverSide, useDom } from "./dom.ts";
import { fireEvent, render, waitFor, within } from "./rtl.ts";

useDom();
let fakes: FakeProviders;
let restore: (() => void) | undefined;
beforeAll(async () => {
  fakes = startFakeProviders();
});
afterAll(async () => {
  await fakes.stop();
});
afterEach(() => {
  restore?.();
  fakes.control.reset();
});

/** A signed-in user on the real app with the fake providers (or none: maintenance). */
async function signedIn(values: Parameters<typeof makeUser>[2] = {}, env: Record<string, string> = fakes.env) {
  // The council's SDK clients are made when it is first read (src/council/council-runtime.ts), and the
  // SDKs refuse happy-dom's globals: read it once with them hidden, as a server would before its first request.
  const t = await serverSide(async () => {
    const app = await createTestApp({ env });
    await shownCouncil(app.deps);
    return app;
  });
  const { user, token } = await makeUser(t.db, t.clock.now(), { firstName: "Zoé", ...values });
  localStorage.setItem("unisson_token", token);
  localStorage.setItem("unisson_user", JSON.stringify(toPublicUser(user, t.clock.now())));
  restore = routeFetchTo(t.app);
  const { App } = await import("../../web/app.tsx");
  render(<App entry={{ reset: false, resetToken: null, paymentSessionId: null }} />);
  const q = within(document.body);
  await q.findByText("Sonar Pro", {}, { timeout: 15_000 });
  return { t, q, user };
}
const box = (q: ReturnType<typeof within>) => q.getByRole("textbox", { name: "Votre question" }) as HTMLTextAreaElement;

// The flows that reach the AI (ask, clarify, final answer) run end to end in
// test/e2e/chat.e2e.test.ts: in this process the AI SDKs and the fake
// providers' servers would see happy-dom's fetch/Response and refuse to work.
describe("chat", () => {
  test("the model list shows name, specialty, provider and OK; the header counts the AIs", async () => {
    const { q } = await signedIn();
    expect(q.getAllByText("6/6 IA disponibles").length).toBeGreaterThan(0);
    expect(q.getByText("Perplexity")).toBeTruthy();
    expect(q.getAllByText("OK").length).toBe(6);
    expect(q.getByText("Système opérationnel")).toBeTruthy();
    expect(q.getByText("5 • 7j")).toBeTruthy();
  });

  test("an expired user is blocked with the trial message and the input disabled; the pricing overlay opens", async () => {
    // Its 7 days are over (a trial that only spent its requests reads the quota text: trial-messages.test.ts).
    const { q } = await signedIn({ subscriptionType: "expired", planQueries: 0, trialEndsAt: new Date("2026-01-01T00:00:00Z") });
    expect(box(q).disabled).toBe(true);
    expect(q.getByText("Expiré")).toBeTruthy();
    // The pricing overlay is open already (the spec opens it for a blocked user), without a click.
    const overlay = await q.findByRole("dialog", { name: "Forfaits et abonnement" });
    fireEvent.click(within(overlay).getByRole("button", { name: "Fermer" }));
    await waitFor(() => expect(q.queryByRole("dialog")).toBeNull());
    // Closed, it stays closed; the notice says why and reopens it.
    expect(q.getByRole("alert").textContent).toContain("Votre essai gratuit de 7 jours est terminé");
    fireEvent.click(within(q.getByRole("alert")).getByRole("button", { name: "Voir les forfaits" }));
    expect((await q.findAllByRole("dialog", {})).length).toBeGreaterThan(0);
  });

  test("no requests left on Basic: the plan's message; 3 or fewer: orange with 'Plus que N requête(s) !'", async () => {
    const { q } = await signedIn({ subscriptionType: "basic", planQueries: 0 });
    expect(q.getByText("0/10 Basic").closest(".quota-badge")?.className).toContain("danger");
    expect(q.getByRole("alert").textContent).toContain("Passez au forfait Pro ou achetez un pack de requêtes");
    // No request left: the pricing overlay opens by itself too.
    expect(await q.findByRole("dialog", { name: "Forfaits et abonnement" })).toBeTruthy();
    const { cleanup } = await import("./rtl.ts");
    cleanup();
    restore?.();
    const again = await signedIn({ subscriptionType: "basic", planQueries: 3 });
    expect(again.q.getByText("3/10 Basic").closest(".quota-badge")?.className).toContain("warning");
    expect(again.q.getByText("Plus que 3 requête(s) !")).toBeTruthy();
  });

  test("with fewer than 2 available AIs the system is in maintenance", async () => {
    const { q } = await signedIn({}, {});
    expect(q.getByText("Maintenance")).toBeTruthy();
    fireEvent.change(box(q), { target: { value: "Bonjour ?" } });
    fireEvent.keyDown(box(q), { key: "Enter" });
    expect(q.getByRole("alert").textContent).toContain("il nécessite au moins 2 IA disponibles");
  });
});
