import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, ensureChromium, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";

const skip = ensureChromium();

/** The consolidated answer's sentence: while the run goes on, each model's own text shows live and contains it too. */
const consolidated = (page: Page) => page.locator(".final-answer").getByText("Paris est la capitale de la France.", { exact: true });
if (skip) console.warn(skip);

describe.skipIf(!!skip)("e2e: ask, clarify, answer, history", () => {
  const world = useE2E();

  test("register -> ask -> answer a clarification -> consolidated answer -> history -> delete", async () => {
    const e = world();
    const { page, errors } = await e.newPage(DESKTOP);
    await page.goto("/");
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await shot(page, "login-desktop");
    await page.getByRole("button", { name: "Créer un compte" }).click();
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await page.getByText("Le prénom est requis").waitFor();
    await shot(page, "register-errors-desktop");

    await registerThroughUi(page, { first: "Camille", last: "Durand", email: "camille@example.fr", password: "Girafe-Secret-123" });
    await page.getByText("Sonar Pro").waitFor();
    await page.getByText("6/6 IA disponibles").first().waitFor();
    await shot(page, "app-start-desktop");

    // The page starts the models with the clarifier (start_run): their answers hang here (aborted when the precision is asked),
    // so the precision is asked before any answer.
    e.fakes.control.setAll({ fail: "hang", failOn: ["answer"] });
    e.fakes.control.clarify(["Pour quel usage : personnel ou professionnel ?"]);
    const question = "Quelle est la capitale de la France ?";
    await page.getByRole("textbox", { name: "Votre question" }).fill(question);
    await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
    await page.getByText("Pour quel usage : personnel ou professionnel ?").waitFor();
    await shot(page, "clarification-desktop");

    e.fakes.control.reset();
    await page.getByRole("textbox", { name: "Votre message" }).fill("Pour un usage personnel.");
    await page.getByRole("textbox", { name: "Votre message" }).press("Enter");
    await consolidated(page).waitFor({ timeout: 20_000 });
    await page.getByText("Analyse terminée").waitFor();
    await shot(page, "answer-desktop");
    await page
      .getByText(/Synthèse rédigée par /)
      .first()
      .waitFor();
    // Each model's own answer opens on demand.
    // In the consolidated answer: the live panel, kept after the run with its bar, has sections of that class too.
    await page.getByRole("button", { name: "Voir la réponse de GPT-4" }).click();
    await page.locator(".final-answer .model-answer").waitFor();
    // The quota went down by one, and the badge says so (trial: 4 left).
    await page.getByText("4 • 7j").waitFor();

    await page.getByRole("tab", { name: "Historique" }).click();
    const item = page.locator(".history-item").filter({ hasText: question });
    await item.waitFor();
    await expect(item.textContent()).resolves.toContain("4 messages");
    await shot(page, "history-desktop");
    await item.locator(".history-open").click();
    await consolidated(page).waitFor();
    await page.getByRole("tab", { name: "Historique" }).click();
    await item.hover();
    await item.getByRole("button", { name: /Supprimer la conversation/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Supprimer" }).click();
    await page.getByText("Aucune conversation pour le moment. Posez votre première question !").waitFor();
    expect(errors).toEqual([]);
  }, 60_000);

  test("phone: the app, the answer and the legal modal read well at 390x844", async () => {
    const e = world();
    const { page, errors } = await e.newPage(PHONE);
    await page.goto("/");
    await shot(page, "login-phone");
    await registerThroughUi(page, { first: "Noé", last: "Petit", email: "noe@example.fr", password: "Girafe-Secret-123" });
    await page.getByText("Sonar Pro").waitFor();
    await shot(page, "app-start-phone");
    await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
    await page.getByRole("button", { name: "Lancer l'analyse" }).click();
    await consolidated(page).waitFor({ timeout: 20_000 });
    await shot(page, "answer-phone");
    await page.getByRole("button", { name: "Conditions Générales de Vente et d'Abonnement" }).click();
    await page
      .getByRole("dialog")
      .getByText(/11,99 €/)
      .first()
      .waitFor();
    await shot(page, "legal-cgv-phone", false);
    expect(errors).toEqual([]);
  }, 60_000);
});
