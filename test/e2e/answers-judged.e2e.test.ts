import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openDb } from "../../src/db/client.ts";
import { errorMessage } from "../../src/lib/errors.ts";
import type { FakeModel } from "../fakes/ai/control.ts";
import { extractCode } from "../fakes/smtp.ts";
import { ensureChromium, type E2E, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";
import { askInPage, hitTestable } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

/**
 * Issue 43's « Done when », tried as a new user would: Chromium at 390 px, an
 * account made through the page (two-factor by e-mail for everyone), fake
 * providers speaking each real protocol. Texts written for this try-out, not
 * taken from the corpus (test/fixtures/refusal-corpus): a hedged opening
 * followed by useful content is an answer; a refusal, in whatever language,
 * is said as one and costs nothing. docs/TESTING.md, "Try-out: answers judged
 * right (issue 43)".
 */

const PASSWORD = "Nuage-Bleu-42";
const MEMBERS: FakeModel[] = ["gpt4", "claudeOpus", "claudeHaiku", "geminiPro", "mistralLarge", "sonarPro"];

/** Each member opens with a hedge (« je ne peux pas… mais voici », "…for you, but here is what matters") and then answers. */
const HEDGED: Record<FakeModel, string> = {
  gpt4: "Je ne peux pas répondre à cette question sans plus d'informations, mais voici les repères qui comptent pour choisir une banque en ligne :\n\n1. Les frais de tenue de compte (souvent 0 €).\n2. Les conditions de revenus exigées.\n3. La qualité de l'application et du service client.",
  claudeOpus:
    "I can't make this choice for you, but here is what matters: compare the monthly fees, the income conditions (some banks ask for 1,000 € a month) and the card that comes with the account.",
  claudeHaiku:
    "Je ne peux pas choisir à votre place, mais voici les critères : frais annuels, plafonds de paiement de la carte, dépôt d'espèces possible ou non, et assurance incluse.",
  geminiPro:
    "Il m'est difficile de répondre sans connaître votre situation, mais voici l'essentiel : une banque en ligne coûte en général de 0 à 5 € par mois ; vérifiez aussi les frais à l'étranger et le découvert autorisé.",
  mistralLarge:
    "Je ne peux pas vous donner une réponse unique, mais voici ce qui compte : les frais (comparez-les sur 12 mois), un service client joignable, et la facilité de clôture.",
  sonarPro:
    "Sans plus d'informations je ne peux pas trancher, mais voici les points clés : frais de carte, conditions de revenus, application mobile, et 3 à 5 jours pour ouvrir le compte.",
};

/** A synthesis that hedges too, in the product's three sections. */
const HEDGED_SYNTHESIS = [
  "## Réponse consolidée",
  "Je ne peux pas choisir à votre place, mais voici ce qui compte : les frais (souvent 0 €), les conditions de revenus et la qualité du service client.",
  "## Points de consensus",
  "Toutes les réponses citent les frais et les conditions de revenus.",
  "## Divergences",
  "Aucune divergence notable.",
].join("\n");

/** Refusals in six languages and as many wordings. */
const REFUSED: Record<FakeModel, string> = {
  gpt4: "Je suis désolé, mais je ne peux pas vous aider avec cette demande.",
  claudeOpus: "Lo siento, pero no puedo ayudar con esa solicitud.",
  claudeHaiku: "Es tut mir leid, aber dabei kann ich nicht helfen.",
  geminiPro: "Mi dispiace, ma non posso aiutarti con questa richiesta.",
  mistralLarge: "Desculpe, mas não posso ajudar com esse pedido.",
  sonarPro: "Sorry, I can't do that.",
};

let n = 0;
const newcomer = (first: string) => ({ first, last: "Nouveau", email: `newcomer.${++n}@example.fr`, password: PASSWORD });

function script(e: E2E, answers: Partial<Record<FakeModel, string>>) {
  e.fakes.control.reset();
  // Written over about a second, as a model writes: the live view and « Arrêter » are seen while they write.
  for (const m of MEMBERS) e.fakes.control.set(m, { answer: answers[m] ?? HEDGED[m], latencyMs: 300, durationMs: 900 });
  e.fakes.control.synthesis = () => HEDGED_SYNTHESIS;
}

/** The trial's badge: « N • 7j », N the requests left. */
async function requestsLeft(page: Page): Promise<number> {
  const text = (await page.locator(".quota-badge").innerText()).trim();
  return Number(/^(\d+)/.exec(text)?.[1] ?? Number.NaN);
}

/** Until the badge says `left` requests remain (it is read again after an answer). */
async function untilLeft(page: Page, left: number): Promise<void> {
  await page.waitForFunction((n) => new RegExp(`^${n}\\b`).test(document.querySelector(".quota-badge")?.textContent?.trim() ?? ""), left);
}

/** What the latest conversation left in the database: its final answers' result_data. */
type Stored = { charged: boolean; degraded: { missing: Array<{ name: string; reason: string }> } | null; models: Array<{ name: string; status: string }> };

function storedAnswers(dataDir: string): Stored[] {
  const db = openDb(join(dataDir, "unisson.db"));
  try {
    const rows = db.$client
      .query(
        "SELECT result_data AS d FROM messages WHERE message_type = 'final_response' AND conversation_id = (SELECT max(id) FROM conversations) ORDER BY id",
      )
      .all() as Array<{ d: string }>;
    return rows.map((r) => JSON.parse(r.d));
  } finally {
    db.$client.close();
  }
}

describe.skipIf(!!skip)("e2e: answers judged right, tried as a new user at 390 px (issue 43)", () => {
  const world = useE2E({ TWO_FACTOR: "all" });

  test("a newcomer registers, signs in again with the e-mailed code, and has the trial's 5 requests", async () => {
    const e = world();
    const { page, errors } = await e.newPage(PHONE);
    const who = newcomer("Camille");
    await registerThroughUi(page, who);
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Mot de passe", { exact: true }).fill(who.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.getByRole("heading", { name: "Vérification en deux étapes" }).waitFor();
    const mail = await e.smtp.waitForMessage((m) => m.to.includes(who.email) && /\b\d{6}\b/.test(m.text), 10_000);
    await page.getByLabel("Code de vérification").fill(extractCode(mail));
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page
      .getByText(/\d\/6 IA disponibles/)
      .first()
      .waitFor();
    await shot(page, "judged-signed-in-phone", false);
    expect(await requestsLeft(page)).toBe(5);
    expect(errors).toEqual([]);
  }, 60_000);

  test("every member hedges, then answers: the consolidated answer is shown, no refusal notice, charged as an answer", async () => {
    const e = world();
    script(e, {});
    const { page, errors } = await e.newPage(PHONE);
    await registerThroughUi(page, newcomer("Hugo"));
    await askInPage(page, "Quelle banque en ligne me conseillez-vous ?");
    // « Arrêter » is there, and a finger reaches it, while the members write.
    const stop = page.getByRole("button", { name: "Arrêter l'analyse en cours" });
    await stop.waitFor();
    expect(await hitTestable(stop)).toBe(true);
    await shot(page, "judged-hedged-writing-phone", false);

    const answer = page.locator(".message.type-final_response").last();
    await answer.getByText("mais voici ce qui compte : les frais (souvent 0 €)").waitFor({ timeout: 30_000 });
    await page.getByText("Analyse terminée").waitFor();
    await shot(page, "judged-hedged-answer-phone", false);
    // No notice above it, no model set aside: all six are in the answer.
    expect(await answer.locator(".notice-degraded, [role=alert]").count()).toBe(0);
    expect(await page.getByText(/refus|a refusé|Trop peu d'IA/).count()).toBe(0);
    expect(await answer.locator(".answered .chip:not(.static)").count()).toBe(6);
    // Charged as any answer: the badge went from 5 to 4, the stored answer says so.
    await untilLeft(page, 4);
    const [stored] = storedAnswers(e.dataDir);
    expect(stored!.charged).toBe(true);
    expect(stored!.degraded).toBeNull();
    expect(stored!.models.filter((m) => m.status !== "answered")).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);

  test("every member refuses, each in its language: the page says the models declined, offers no « Réessayer », stores no answer, charges nothing", async () => {
    const e = world();
    script(e, REFUSED);
    const { page, errors } = await e.newPage(PHONE);
    await registerThroughUi(page, newcomer("Inès"));
    await askInPage(page, "Comment lire les SMS de mon conjoint sans qu'il le sache ?");
    const notice = page.getByRole("alert").filter({ hasText: "La synthèse n'a pas pu être établie" });
    await notice.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300); // the stream's last lines settle before the picture
    await shot(page, "judged-all-declined-phone", false);
    expect(await notice.innerText()).toContain(errorMessage("COUNCIL_DECLINED"));
    // Not the outage's text, which invites a retry that would be refused the same way.
    expect(await page.getByText("Trop peu d'IA ont répondu").count()).toBe(0);
    expect(await notice.getByRole("button", { name: "Réessayer" }).count()).toBe(0);
    // In its place, the question's edit box, brought into view (at 390 px the question is a scroll away), focused.
    await notice.getByRole("button", { name: "Modifier la question" }).click();
    const edit = page.getByRole("textbox", { name: "Question modifiée" });
    await edit.waitFor();
    expect(await edit.inputValue()).toBe("Comment lire les SMS de mon conjoint sans qu'il le sache ?");
    expect(await edit.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.waitForFunction(() => {
      const box = document.getElementById("edit-question")?.getBoundingClientRect();
      return !!box && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    await shot(page, "judged-all-declined-edit-phone", false);
    await page.getByRole("button", { name: "Annuler" }).click();
    // Each member's line says it declined, not that it failed.
    const lines = page.locator(".live-models .live-model");
    expect(await lines.count()).toBe(6);
    for (const line of await lines.all()) expect(await line.locator(".live-status").innerText()).toBe("a refusé de répondre");
    // Not an answer, not charged.
    expect(await page.locator(".message.type-final_response").count()).toBe(0);
    expect(storedAnswers(e.dataDir)).toEqual([]);
    await page.reload();
    await page
      .getByText(/\d\/6 IA disponibles/)
      .first()
      .waitFor();
    expect(await requestsLeft(page)).toBe(5);
    expect(errors.filter((x) => !x.includes("503"))).toEqual([]);
  }, 60_000);

  test("two members refuse, four hedge and answer: the answer is shown, the notice names the two that declined, charged", async () => {
    const e = world();
    script(e, { claudeOpus: "Je préfère ne pas me prononcer sur ce sujet.", geminiPro: "Lo siento, no puedo ayudarte con eso." });
    const { page, errors } = await e.newPage(PHONE);
    await registerThroughUi(page, newcomer("Yanis"));
    await askInPage(page, "Quelle banque en ligne pour un étudiant ?");
    const answer = page.locator(".message.type-final_response").last();
    await answer.getByText("mais voici ce qui compte").waitFor({ timeout: 30_000 });
    await page.getByText("Analyse terminée").waitFor();
    await shot(page, "judged-partial-answer-phone", false);
    const notice = await answer.locator(".notice-degraded").innerText();
    expect(notice).toContain("synthèse établie à partir de 4 réponses sur 6");
    // Said as refusals, not as missing answers (the order is the members' order of finishing).
    expect(notice).toMatch(/Ont refusé de répondre : (Claude Opus 4\.1, Gemini Pro|Gemini Pro, Claude Opus 4\.1)\./);
    expect(notice).not.toContain("Sans réponse");
    // The chips say who declined, not that they were « indisponible ».
    expect(await answer.locator(".chip.static").allInnerTexts()).toEqual(expect.arrayContaining(["Claude Opus 4.1 (a refusé)", "Gemini Pro (a refusé)"]));
    await answer.getByRole("button", { name: "Détail par modèle" }).click();
    await answer.locator(".answered").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await shot(page, "judged-partial-detail-phone", false);
    // Four answers: charged (fewer than 3 would be free).
    await untilLeft(page, 4);
    const [stored] = storedAnswers(e.dataDir);
    expect(stored!.charged).toBe(true);
    expect(stored!.degraded!.missing.map((m) => m.name).sort()).toEqual(["Claude Opus 4.1", "Gemini Pro"]);
    expect(errors).toEqual([]);
  }, 60_000);
});
