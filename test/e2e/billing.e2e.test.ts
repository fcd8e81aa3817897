import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type FakeStripe, startFakeStripe } from "../fakes/stripe/server.ts";
import { checkA11y } from "./a11y-check.ts";
import { DESKTOP, type E2E, ensureChromium, PHONE, shot, startE2E } from "./harness.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

/**
 * The browser goes to http://localhost:PORT, the product's PUBLIC_URL origin:
 * the server only accepts Stripe return addresses on its own origin.
 */
describe.skipIf(!!skip)("e2e: buying and changing plans with the fake Stripe", () => {
  let e: E2E;
  let stripe: FakeStripe;
  let origin: string;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    e = await startE2E({ ...stripe.env });
    origin = e.url.replace("127.0.0.1", "localhost");
    stripe.setWebhookUrl(`${e.url}/api/stripe/webhook`);
  }, 60_000);
  afterAll(async () => {
    await e?.stop();
    stripe?.stop();
  });

  const overlay = (page: Page) => page.getByRole("dialog", { name: "Forfaits et abonnement" });
  const planBadge = (page: Page) => page.locator(".plan-badge").first();

  /** registerThroughUi's steps, on the PUBLIC_URL origin (localStorage is per origin). */
  async function register(page: Page, first: string, email: string) {
    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Créer un compte" }).click();
    await page.getByLabel("Prénom").fill(first);
    await page.getByLabel("Nom", { exact: true }).fill("Martin");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Mot de passe", { exact: true }).fill("Girafe-Secret-123");
    await page.getByLabel("Confirmer le mot de passe").fill("Girafe-Secret-123");
    await page.locator("#terms").check();
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await page.locator(".plan-badge").first().waitFor(); // ("Bonjour, …" is hidden on phones)
  }

  async function openPricing(page: Page) {
    await page.getByRole("button", { name: "Abonnement", exact: true }).click();
    await overlay(page).getByRole("heading", { name: "Nos forfaits" }).waitFor();
    // The quotes and status arrive after the cards: let them settle before acting or taking a picture.
    await page.waitForLoadState("networkidle");
  }

  test("trial -> Basic (checkout) -> Pro (immediate) -> downgrade scheduled and cancelled -> a pack", async () => {
    const { page } = await e.newPage(DESKTOP);
    // Console errors of our pages only: the fake Stripe's page has no favicon (its 401 is not ours).
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && !m.location().url.startsWith(stripe.url)) errors.push(`${m.text()} at ${m.location().url}`);
    });
    page.on("pageerror", (err) => errors.push(String(err)));
    await register(page, "Chloé", "chloe@example.fr");
    await expect(planBadge(page).textContent()).resolves.toBe("ESSAI");

    // Trial: every offer, monthly and annual, no pack nor management.
    await openPricing(page);
    await shot(page, "pricing-trial-desktop", false);
    await checkA11y(page, "pricing overlay (trial)");
    await overlay(page)
      .getByRole("radio", { name: /Annuel/ })
      .click();
    await overlay(page).getByText("au lieu de 359,88 € en mensuel").waitFor();
    await overlay(page).getByRole("radio", { name: "Mensuel" }).click();

    // Buy Basic: redirected to the fake Stripe's page, pay, back with session_id.
    await overlay(page).getByRole("button", { name: "Choisir Basic" }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    await page.getByRole("button", { name: "Payer" }).click();
    await page.waitForURL((u) => u.searchParams.has("session_id") || u.pathname === "/");
    const verify = page.getByRole("dialog", { name: "Vérification du paiement" });
    await verify.waitFor();
    await verify.getByText("Paiement réussi ! Votre compte a été mis à jour.").waitFor();
    await shot(page, "payment-success-desktop", false);
    await checkA11y(page, "payment verification");
    expect(new URL(page.url()).searchParams.has("session_id")).toBe(false);
    await verify.waitFor({ state: "detached", timeout: 5_000 }); // closes by itself after 2 s
    await page.waitForFunction(() => document.querySelector(".plan-badge")?.textContent === "BASIC");

    // Basic: upgrade to Pro is immediate.
    await openPricing(page);
    await overlay(page)
      .getByText(/Prochain renouvellement : /)
      .waitFor();
    await overlay(page)
      .getByText(/Passage immédiat à Pro : /)
      .first()
      .waitFor();
    await shot(page, "pricing-basic-desktop", false);
    await checkA11y(page, "pricing overlay (basic)");
    await overlay(page).getByRole("button", { name: "Choisir : Pro mensuel" }).click();
    const confirm = page.getByRole("dialog", { name: /Confirmer le changement : Pro mensuel/ });
    await shot(page, "pricing-confirm-desktop", false);
    await checkA11y(page, "change confirmation");
    await confirm.getByRole("button", { name: "Confirmer" }).click();
    const ack = page.getByRole("dialog", { name: "Demande enregistrée" });
    await ack.getByText(/Votre abonnement est passé au forfait Pro/).waitFor();
    await checkA11y(page, "change acknowledgement");
    await ack.getByRole("button", { name: "Compris" }).click();
    await page.waitForFunction(() => document.querySelector(".plan-badge")?.textContent === "PRO");

    // Pro: schedule a downgrade to Basic, see it pending, cancel it.
    await overlay(page).getByRole("button", { name: "Choisir : Basic mensuel" }).click();
    await page
      .getByRole("dialog", { name: /Basic mensuel/ })
      .getByRole("button", { name: "Confirmer" })
      .click();
    await page
      .getByRole("dialog", { name: "Demande enregistrée" })
      .getByText(/prendra effet le/)
      .waitFor();
    await page.getByRole("button", { name: "Compris" }).click();
    await overlay(page)
      .getByText(/Changement prévu : Basic \(facturation mensuelle\) le \d+ \S+ \d{4}/)
      .waitFor();
    await shot(page, "pricing-pending-desktop", false);
    await overlay(page).getByRole("button", { name: "Annuler ce changement" }).click();
    await overlay(page).getByText("Votre demande de changement a été annulée.").waitFor();
    // The status is re-read after the message: wait for the pending line to go, don't sample it.
    await overlay(page)
      .getByText(/Changement prévu/)
      .waitFor({ state: "detached" });

    // A pack of 10 requests: checkout in payment mode, back, +10.
    const before = await page.evaluate(() => JSON.parse(localStorage.getItem("unisson_user") ?? "{}").remaining_queries as number);
    await overlay(page).getByRole("button", { name: "Acheter le pack" }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    await page.getByRole("button", { name: "Payer" }).click();
    await page.getByText("Paiement réussi ! Votre compte a été mis à jour.").waitFor();
    await page.getByRole("dialog", { name: "Vérification du paiement" }).waitFor({ state: "detached", timeout: 5_000 });
    const after = await page.evaluate(() => JSON.parse(localStorage.getItem("unisson_user") ?? "{}").remaining_queries as number);
    expect(after).toBe(before + 10);
    expect(errors).toEqual([]);
  }, 90_000);

  test("phone: the overlay for a trial user, and an expired payment session", async () => {
    const { page } = await e.newPage(PHONE);
    await register(page, "Hugo", "hugo@example.fr");
    await openPricing(page);
    await shot(page, "pricing-trial-phone", false);
    await overlay(page).getByRole("button", { name: "Choisir Pro" }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    stripe.state.expire(id);
    await page.goto(`${origin}/?session_id=${id}`);
    const verify = page.getByRole("dialog", { name: "Vérification du paiement" });
    await verify.getByText("Session de paiement expirée. Veuillez réessayer.").waitFor();
    await shot(page, "payment-expired-phone", false);
    await checkA11y(page, "payment expired (phone)");
    await verify.getByRole("button", { name: "Retour à l'accueil" }).click();
    await verify.waitFor({ state: "detached" });
    await expect(planBadge(page).textContent()).resolves.toBe("ESSAI");
  }, 60_000);
});
