import { describe, expect, test } from "bun:test";
import { extractCode } from "../fakes/smtp.ts";
import { DESKTOP, ensureChromium, PHONE, shot, useE2E } from "./harness.ts";
import { askThroughApi, hitTestable, registerThroughApi, textLines } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ADMIN = { email: "admin@example.fr", password: "Admin-Secret-42" };
const SIZES = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;
let n = 0;
const someone = (first = "Noé") => ({ first, last: "Petit", email: `user${++n}@example.fr`, password: "Nuage-Bleu-42" });

describe.skipIf(!!skip)("e2e: the page on a phone (issue 20)", () => {
  // No STRIPE_SECRET_KEY: online payment is not configured on this server.
  const world = useE2E({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });

  for (const [name, size] of SIZES) {
    test(`${name}: the header's controls stay reachable while the install banner shows`, async () => {
      const e = world();
      const context = await e.browser.newContext({ viewport: size, locale: "fr-FR", baseURL: e.url, userAgent: IPHONE_UA, hasTouch: true });
      const page = await context.newPage();
      await registerThroughApi(page, someone());
      await page.goto("/");
      await page.getByRole("complementary", { name: "Installer Unisson" }).waitFor({ timeout: 8_000 });
      await shot(page, `install-banner-${name}`, false);
      for (const control of [
        page.locator(".quota-badge"),
        page.getByRole("button", { name: "Abonnement", exact: true }),
        page.getByRole("button", { name: "Déconnexion" }),
      ]) {
        expect(await hitTestable(control)).toBe(true);
      }
      await context.close();
    }, 40_000);

    test(`${name}: after an answer the reply box is on screen and reachable, the view at the answer's start`, async () => {
      const e = world();
      const { page, errors } = await e.newPage(size);
      await registerThroughApi(page, someone());
      await page.goto("/");
      await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
      await page.getByRole("button", { name: "Lancer l'analyse" }).click();
      await page.getByText("Paris est la capitale de la France.").first().waitFor({ timeout: 20_000 });
      await page.getByText("Analyse terminée").waitFor();
      await page.waitForTimeout(900); // the smooth scroll settles
      await shot(page, `reply-box-${name}`, false);
      await page.getByRole("complementary", { name: "Votre code de parrainage" }).waitFor();
      expect(await hitTestable(page.getByRole("textbox", { name: "Votre message" }))).toBe(true);
      expect(await hitTestable(page.getByRole("button", { name: "Envoyer" }))).toBe(true);
      // The answer's first line is in view, under the header.
      const top = await page
        .locator(".message.type-final_response")
        .last()
        .evaluate((el) => el.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(size.height / 2);
      expect(errors).toEqual([]);
    }, 40_000);
  }

  test("a trial whose 5 requests are spent says so, not that the 7 days are over", async () => {
    const e = world();
    const { page } = await e.newPage(PHONE);
    const token = await registerThroughApi(page, someone());
    for (let i = 0; i < 5; i++) await askThroughApi(page, token, `Question ${i} : quelle est la capitale de la France ?`);
    await page.goto("/");
    await page.getByText("Vous avez utilisé vos 5 requêtes gratuites.").waitFor();
    expect(await page.getByText(/essai gratuit de 7 jours est terminé/).count()).toBe(0);
    await shot(page, "trial-spent-phone", false);
  }, 60_000);

  test("a history that fails to load says so and offers Réessayer", async () => {
    const e = world();
    const { page } = await e.newPage(PHONE);
    await registerThroughApi(page, someone());
    await page.goto("/");
    await page.route("**/api/unisson/history?*", (r) => r.abort("internetdisconnected"));
    await page.getByRole("tab", { name: "Historique" }).click();
    await page.getByText("Erreur lors du chargement de l'historique. Veuillez réessayer.").waitFor();
    expect(await page.getByText("Aucune conversation pour le moment").count()).toBe(0);
    await shot(page, "history-error-phone", false);
    await page.unroute("**/api/unisson/history?*");
    await page.getByRole("button", { name: "Réessayer" }).click();
    await page.getByText("Aucune conversation pour le moment. Posez votre première question !").waitFor();
  }, 40_000);

  test("two-factor cancelled and entered again within a minute: code already sent, real validity kept", async () => {
    const e = world();
    const { page, errors } = await e.newPage(PHONE);
    await page.goto("/");
    const login = async () => {
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Mot de passe", { exact: true }).fill(ADMIN.password);
      await page.getByRole("button", { name: "Se connecter" }).click();
      await page.getByRole("heading", { name: "Vérification en deux étapes" }).waitFor();
    };
    await login();
    const mail = await e.smtp.waitForMessage((m) => m.to.includes(ADMIN.email), 10_000);
    await page.waitForTimeout(2_500);
    await page.getByRole("button", { name: "Annuler" }).click();
    await login();
    await page.getByText("Un code vous a déjà été envoyé").waitFor();
    await shot(page, "two-factor-again-phone", false);
    expect(await page.getByRole("alert").count()).toBe(0);
    // The first code's own validity (sent 2.5 s or more ago), not a fresh 10:00.
    const validity = await page.locator(".countdown").textContent();
    expect(validity).toMatch(/Code valable encore 9:[0-5]\d/);
    expect(validity).not.toContain("10:00");
    await expect(page.getByRole("button", { name: /Renvoyer dans 0:[0-5]\d/ }).isDisabled()).resolves.toBe(true);
    await page.getByLabel("Code de vérification").fill(extractCode(mail));
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.getByRole("button", { name: "Administration" }).waitFor();
    expect(errors.filter((x) => !x.includes("429"))).toEqual([]);
  }, 40_000);

  test("answers: GFM tables, strikethrough, task lists, links in a new tab, chips named Réponse X", async () => {
    const e = world();
    e.fakes.control.synthesis = () =>
      [
        "## Réponse consolidée",
        "| Ville | Pays |",
        "| --- | --- |",
        "| Paris | France |",
        "",
        "~~Lyon~~ n'est pas la capitale.",
        "",
        "- [x] vérifié",
        "",
        "<b>gras brut</b>",
        "",
        "Sources : https://fr.wikipedia.org/wiki/Paris",
        "## Points de consensus",
        "Paris.",
        "## Divergences",
        "Aucune divergence notable.",
      ].join("\n");
    const { page, errors } = await e.newPage(DESKTOP);
    await registerThroughApi(page, someone());
    await page.goto("/");
    await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
    await page.getByRole("button", { name: "Lancer l'analyse" }).click();
    const answer = page.locator(".message.type-final_response .final-answer > .markdown");
    await answer.locator("table").waitFor({ timeout: 20_000 });
    e.fakes.control.reset();
    expect(await answer.locator("td").allTextContents()).toEqual(["Paris", "France"]);
    expect(await answer.locator("del").textContent()).toBe("Lyon");
    expect(await answer.locator('input[type="checkbox"]').isChecked()).toBe(true);
    expect(await answer.locator("b").count()).toBe(0);
    const link = answer.getByRole("link", { name: "https://fr.wikipedia.org/wiki/Paris" });
    expect(await link.getAttribute("target")).toBe("_blank");
    expect((await link.getAttribute("rel"))?.split(" ")).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));
    const chip = page.locator(".answered .chip").first();
    expect(await chip.getAttribute("title")).toMatch(/^Réponse [A-F]\b/);
    expect(await chip.getAttribute("aria-label")).toMatch(/Réponse [A-F]/);
    // The accessible name contains the visible text (WCAG 2.5.3).
    const visible = (await chip.innerText()).trim();
    expect(await chip.getAttribute("aria-label")).toContain(visible);
    await shot(page, "answer-gfm-desktop", false);
    expect(errors).toEqual([]);
  }, 40_000);

  test("phone header: the first name shows, the badges do not wrap; promo placeholder not in capitals", async () => {
    const e = world();
    const { page } = await e.newPage(PHONE);
    await registerThroughApi(page, someone("Léa"));
    await page.goto("/");
    await page.getByText("6/6 IA disponibles").first().waitFor();
    expect(await page.locator(".app-header .hello").innerText()).toBe("Léa");
    expect(await textLines(page.locator(".quota-text"))).toBe(1);
    expect(await textLines(page.locator(".plan-badge"))).toBe(1);
    await page.getByRole("button", { name: "Abonnement", exact: true }).click();
    const promo = page.getByLabel("Code promo ou de parrainage");
    await promo.waitFor();
    expect(await promo.getAttribute("placeholder")).toBe("Ex. : AMI2024");
    expect(await promo.evaluate((el) => getComputedStyle(el).textTransform)).not.toBe("uppercase");
    await promo.fill("bienvenue");
    expect(await promo.evaluate((el) => getComputedStyle(el).textTransform)).toBe("uppercase");
  }, 40_000);

  test("without a Stripe key, a checkout shows the spec's 402 alert and a payment return says online payment is not configured", async () => {
    const e = world();
    const { page, errors } = await e.newPage(PHONE);
    await registerThroughApi(page, someone());
    await page.goto("/");
    await page.getByRole("button", { name: "Abonnement", exact: true }).click();
    await page.getByRole("button", { name: "Choisir Basic" }).click();
    // The spec's alert for a 402 at checkout (issue 32).
    await page.getByText("Problème de configuration de paiement. Contactez le support.").waitFor();
    await shot(page, "pricing-no-stripe-phone", false);

    await page.goto("/?session_id=cs_test_123");
    await page.getByText("Le paiement en ligne n'est pas configuré sur ce serveur.").first().waitFor();
    expect(await page.getByText("Erreur lors de la vérification du paiement").count()).toBe(0);
    await shot(page, "payment-return-no-stripe-phone", false);
    expect(errors.filter((x) => !x.includes("402"))).toEqual([]);
  }, 40_000);
});
