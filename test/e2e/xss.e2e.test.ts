import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, ensureChromium, registerThroughUi, useE2E } from "./harness.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

/**
 * In a real browser against the compiled executable: a user name, a question
 * and model answers full of <script>, <img onerror>, <svg onload> and
 * javascript: links render as inert text. Two proofs: nothing ran (no
 * global set, no dialog), and the page holds no element or attribute that
 * could run (so the safety does not rest on the CSP alone).
 */
const HOSTILE = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><svg onload="window.__xss=3"></svg> [clic](javascript:window.__xss=4)`;

/** Elements and attributes that could run script, inside the app (not the SPA's own bundle tags). */
async function activeContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (["SCRIPT", "IFRAME", "OBJECT", "EMBED"].includes(el.tagName) && !(el as HTMLScriptElement).src?.includes("/assets/")) found.push(el.tagName);
      for (const a of Array.from(el.attributes)) {
        if (/^on/i.test(a.name)) found.push(`${el.tagName}[${a.name}]`);
        if (/^\s*javascript:/i.test(a.value)) found.push(`${el.tagName}[${a.name}=${a.value}]`);
      }
    }
    return found;
  });
}

describe.skipIf(!!skip)("e2e: hostile markup renders inert", () => {
  const world = useE2E();

  test("a model answer and a question with <script>/<img onerror> run nothing and leave no active element", async () => {
    const e = world();
    const { page, errors } = await e.newPage(DESKTOP);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await registerThroughUi(page, {
      first: `Zoé <img src=x onerror="window.__xss=5">`,
      last: "Durand",
      email: "xss@example.fr",
      password: "Girafe-Secret-123",
    });
    e.fakes.control.synthesis = () => `## Réponse consolidée\nMARQUEUR-XSS Paris. ${HOSTILE}\n## Points de consensus\n${HOSTILE}\n## Divergences\n${HOSTILE}`;
    e.fakes.control.setAll({ answer: `Réponse piégée ${HOSTILE}` });
    try {
      await page.getByRole("textbox", { name: "Votre question" }).fill(`Question ${HOSTILE}`);
      await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
      await page
        .getByText(/MARQUEUR-XSS/)
        .first()
        .waitFor({ timeout: 20_000 });
      await page.getByRole("button", { name: "Voir la réponse de GPT-4" }).click();
      await page.locator(".model-answer").waitFor();
      // Give any injected handler (an image error, an svg load) time to fire.
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);
      expect(await activeContent(page)).toEqual([]);
      // The answers are shown (Markdown keeps the text, drops raw HTML); the name is shown as typed, as text.
      expect(await page.locator(".model-answer").textContent()).toContain("Réponse piégée");
      expect(await page.locator("body").textContent()).toContain(`Zoé <img src=x onerror="window.__xss=5">`);
      expect(errors.filter((m) => !/Content Security Policy/i.test(m))).toEqual([]);
    } finally {
      e.fakes.control.reset();
    }
  }, 60_000);
});
