import { describe, expect, test } from "bun:test";
import { LONG_ANSWER } from "../helpers/model-texts.ts";
import { checkA11y } from "./a11y-check.ts";
import { DESKTOP, ensureChromium, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const QUESTION = "Quelle est la capitale de la France ?";

describe.skipIf(!!skip)("e2e: each model writing, live (issue 34)", () => {
  const world = useE2E();

  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const)
    test(`${size}: each model's text appears while it writes, its last lines first, the whole on demand; then the synthesis`, async () => {
      const e = world();
      e.fakes.control.reset();
      // Every model writes two thirds of its answer, then waits for the test (`release`): seen writing, none answered, however slow the box.
      let release = () => {};
      const answerPause = { afterPieces: 8, until: new Promise<void>((resolve) => (release = resolve)) };
      e.fakes.control.setAll({ latencyMs: 600, durationMs: 1500, answer: LONG_ANSWER, answerPause, synthesisLatencyMs: 200, synthesisDurationMs: 1500 });
      // A short answer: it fits its box, nothing to unfold.
      e.fakes.control.set("sonarPro", { answer: "Paris est la capitale de la France.", answerPause: { afterPieces: 4, until: answerPause.until } });
      const { page, errors } = await e.newPage(viewport);
      await registerThroughUi(page, { first: "Inès", last: "Roux", email: `ines.writing.${size}@example.fr`, password: "Nuage-Bleu-42" });
      await page.getByText("6/6 IA disponibles").first().waitFor();
      // The run's live events, as the browser gets them: gzip-compressed (it sends Accept-Encoding), each event flushed (issue 46).
      const live = page.waitForResponse(
        (r) => /\/api\/unisson\/(process|conversation\/\d+\/events)$/.test(r.url()) && (r.headers()["content-type"] ?? "").startsWith("text/event-stream"),
      );
      await page.getByRole("textbox", { name: "Votre question" }).fill(QUESTION);
      await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
      expect((await live).headers()["content-encoding"]).toBe("gzip");

      const gpt = page.getByRole("region", { name: "Réponse de GPT-4 en cours d'écriture" });
      await gpt.getByText("Phrase 1 :", { exact: false }).waitFor({ timeout: 10_000 });
      // Text on screen while every model is still writing: none has answered yet.
      expect(await page.locator(".live-model.state-answered").count()).toBe(0);
      await expect(page.locator(".live-model.state-writing").count()).resolves.toBeGreaterThan(0);
      // Every model's first two thirds on screen, still none answered.
      for (const name of ["GPT-4", "Claude Opus 4.1", "Claude 3 Haiku", "Gemini Pro", "Mistral Large"]) {
        await page
          .getByRole("region", { name: `Réponse de ${name} en cours d'écriture` })
          .getByText("Phrase 26 :", { exact: false })
          .waitFor();
      }
      expect(await page.locator(".live-model.state-answered").count()).toBe(0);
      await shot(page, `model-writing-${size}`, false);
      await checkA11y(page, `model-writing-${size}`);

      // Collapsed: the newest lines are in sight, the box keeps a few lines (4 on a phone).
      const box = gpt.locator(".model-writing-text");
      const collapsed = (await box.boundingBox())!.height;
      const lineHeight = await box.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
      expect(collapsed).toBeLessThanOrEqual(lineHeight * (size === "phone" ? 4.5 : 9.5));
      const sonar = page.getByRole("region", { name: "Réponse de Sonar Pro en cours d'écriture" });
      await sonar.getByText("Paris est", { exact: false }).waitFor();
      expect(await sonar.getByRole("button").count()).toBe(0);
      await gpt.getByRole("button", { name: "Tout afficher" }).click();
      await expect(gpt.getByRole("button", { name: "Réduire" }).getAttribute("aria-expanded")).resolves.toBe("true");
      await shot(page, `model-writing-expanded-${size}`, false);
      expect((await box.boundingBox())!.height).toBeGreaterThan(collapsed);

      release();
      // Then the synthesis streams as before, the models' answers folded away above it; the answer ends the run.
      await page.locator("details.model-writing-folded").waitFor({ timeout: 20_000 });
      await shot(page, `model-writing-synthesis-${size}`, false);
      await page.getByText("Analyse terminée").waitFor({ timeout: 20_000 });
      expect(errors).toEqual([]);
    }, 90_000);
});
