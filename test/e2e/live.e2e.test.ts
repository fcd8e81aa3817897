import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, ensureChromium, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const QUESTION = "Quelle est la capitale de la France ?";

/** The referral banner never covers the question box or its send button, wherever the page is scrolled. */
async function expectBannerClearOfComposer(page: Page) {
  const composer = page.locator(".composer").last();
  for (const y of [0, 400, 100_000]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    const a = await composer.boundingBox();
    const b = await page.locator(".referral-banner").boundingBox();
    if (!a || !b) throw new Error("composer or banner missing");
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
  }
}

describe.skipIf(!!skip)("e2e: a live run, a reload during it, the per-model panel, degradation and Réessayer", () => {
  const world = useE2E();

  test("desktop: per-model lines while the run goes on; a reload resumes it and ends with the same answer", async () => {
    const e = world();
    e.fakes.control.reset();
    e.fakes.control.setAll({ latencyMs: 600, synthesisLatencyMs: 400, synthesisDurationMs: 2500 });
    e.fakes.control.set("gpt4", { latencyMs: 3000 });
    const { page, errors } = await e.newPage(DESKTOP);
    await registerThroughUi(page, { first: "Léa", last: "Martin", email: "lea.live@example.fr", password: "Nuage-Bleu-42" });
    await page.getByText("6/6 IA disponibles").first().waitFor();
    await page.getByRole("textbox", { name: "Votre question" }).fill(QUESTION);
    await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
    await page.locator(".live-model.state-answered").first().waitFor();
    await page.locator(".live-model.state-waiting", { hasText: "GPT-4" }).waitFor();
    await shot(page, "live-run-desktop");

    await page.reload();
    await page.locator(".live-run").waitFor();
    await page.getByText("Synthèse rédigée par Claude Opus 4.1…").waitFor({ timeout: 15_000 });
    await shot(page, "live-run-resumed-desktop");
    await page.getByText("Analyse terminée").waitFor({ timeout: 20_000 });
    await page.locator(".final-answer").getByText("Paris est la capitale de la France.").first().waitFor();
    await page.getByRole("button", { name: "Détail par modèle" }).click();
    await page.locator(".model-panel-list").waitFor();
    await expect(page.locator(".model-panel").textContent()).resolves.toMatch(/Coût de cette réponse : 0,\d{4}/);
    await shot(page, "answer-panel-desktop");
    await expectBannerClearOfComposer(page);
    expect(e.fakes.control.callsOf("synthesis")).toHaveLength(1);
    expect(errors).toEqual([]);
  }, 60_000);

  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const)
    test(`${size}: a degraded answer shows its notice above the answer; a failed run offers Réessayer, which answers the same question`, async () => {
      const e = world();
      e.fakes.control.reset();
      e.fakes.control.set("geminiPro", { fail: "refusal", failOn: ["answer"] });
      e.fakes.control.set("sonarPro", { fail: 500, failOn: ["answer"] });
      const { page, errors } = await e.newPage(viewport);
      await registerThroughUi(page, { first: "Noé", last: "Petit", email: `noe.${size}@example.fr`, password: "Nuage-Bleu-42" });
      await page.getByText("6/6 IA disponibles").first().waitFor();
      await page.getByRole("textbox", { name: "Votre question" }).fill(QUESTION);
      await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
      const notice = page.locator(".notice-degraded");
      await notice.waitFor({ timeout: 20_000 });
      await expect(notice.textContent()).resolves.toContain("4 réponses sur 6");
      await page.getByRole("button", { name: "Détail par modèle" }).click();
      await shot(page, `degraded-${size}`);
      await expectBannerClearOfComposer(page);

      e.fakes.control.reset();
      e.fakes.control.setAll({ fail: 500, failOn: ["synthesis"] });
      await page.getByRole("textbox", { name: "Votre message" }).fill("Et quelle est la capitale de l'Italie ?");
      await page.getByRole("textbox", { name: "Votre message" }).press("Enter");
      await page.getByRole("button", { name: "Réessayer" }).waitFor({ timeout: 20_000 });
      await page.getByText("Réponses individuelles des modèles (sans synthèse)").click();
      await shot(page, `failed-retry-${size}`);

      e.fakes.control.reset();
      await page.getByRole("button", { name: "Réessayer" }).click();
      await page.getByText("Analyse terminée").waitFor({ timeout: 20_000 });
      const sent = e.fakes.control.callsOf("answer", "gpt4").at(-1)!.messages.at(-1)!.content;
      expect(sent).toBe("Et quelle est la capitale de l'Italie ?");
      await shot(page, `retried-${size}`);
      expect(errors).toEqual([]);
    }, 60_000);
});
