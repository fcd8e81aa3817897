import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { checkContrast } from "./a11y-check.ts";
import { DESKTOP, ensureChromium, PHONE, useE2E } from "./harness.ts";
import { registerThroughApi } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

/** Throwaway pictures of every screen in both themes, to look at (not committed). */
const SHOTS = join(tmpdir(), "unisson-theme-shots");
mkdirSync(SHOTS, { recursive: true });
const themeShot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

/** Relative luminance of a computed `rgb(...)` colour, 0 (black) to 1 (white). */
const luminance = (rgb: string) => {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

let n = 0;
describe.skipIf(!!skip)("e2e: dark theme, contrast and reduced motion (issue 20)", () => {
  const world = useE2E();

  for (const scheme of ["light", "dark"] as const) {
    for (const [size, viewport] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      test(`${scheme}, ${size}: the system's theme is followed and every text keeps AA contrast`, async () => {
        const e = world();
        const { page, errors } = await e.newPage(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto("/");
        await page.getByRole("heading", { name: "Connexion" }).waitFor();
        const lum = luminance(await background(page));
        if (scheme === "dark") expect(lum).toBeLessThan(0.05);
        else expect(lum).toBeGreaterThan(0.8);
        await themeShot(page, `login-${scheme}-${size}`);
        await checkContrast(page, `login ${scheme} ${size}`);

        await registerThroughApi(page, { first: "Zoé", last: "Martin", email: `theme${++n}@example.fr`, password: "Nuage-Bleu-42" });
        await page.goto("/");
        await page.getByText("6/6 IA disponibles").first().waitFor();
        await themeShot(page, `app-${scheme}-${size}`);
        await checkContrast(page, `app ${scheme} ${size}`);

        await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
        await page.getByRole("button", { name: "Lancer l'analyse" }).click();
        await page.getByText("Analyse terminée").waitFor({ timeout: 20_000 });
        await page.waitForTimeout(700);
        await themeShot(page, `answer-${scheme}-${size}`);
        await checkContrast(page, `answer ${scheme} ${size}`);

        await page.getByRole("tab", { name: "Historique" }).click();
        await page.locator(".history-item").first().waitFor();
        await themeShot(page, `history-${scheme}-${size}`);
        await checkContrast(page, `history ${scheme} ${size}`);
        // What the user types in the search box reads on its background (it was near-white on white in the dark theme).
        const search = page.getByRole("searchbox", { name: /Rechercher/ });
        await search.fill("capitale");
        const colours = await search.evaluate((el) => ({ fg: getComputedStyle(el).color, bg: getComputedStyle(el).backgroundColor }));
        const [hi, lo] = [luminance(colours.fg), luminance(colours.bg)].sort((a, b) => b - a);
        expect((hi! + 0.05) / (lo! + 0.05)).toBeGreaterThanOrEqual(4.5);
        await themeShot(page, `history-search-${scheme}-${size}`);
        await checkContrast(page, `history search ${scheme} ${size}`);

        await page.getByRole("button", { name: "Abonnement", exact: true }).click();
        await page.getByRole("dialog").waitFor();
        await page.waitForTimeout(400);
        await themeShot(page, `pricing-${scheme}-${size}`);
        await checkContrast(page, `pricing ${scheme} ${size}`);
        expect(errors).toEqual([]);
      }, 60_000);
    }
  }

  test("prefers-reduced-motion stops the progress and typing animations", async () => {
    const e = world();
    const { page } = await e.newPage(PHONE);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await registerThroughApi(page, { first: "Zoé", last: "Martin", email: `motion${++n}@example.fr`, password: "Nuage-Bleu-42" });
    e.fakes.control.setAll({ latencyMs: 1500 });
    await page.goto("/");
    await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
    await page.getByRole("button", { name: "Lancer l'analyse" }).click();
    const moving = () =>
      page.evaluate(
        () =>
          [...document.querySelectorAll(".dots i, .spinner, .progress-fill, .payment-spinner")].filter((el) => {
            const s = getComputedStyle(el);
            const anim = s.animationName !== "none" && parseFloat(s.animationDuration) > 0.01;
            const trans = parseFloat(s.transitionDuration) > 0.01;
            return anim || trans;
          }).length,
      );
    await page.locator(".dots i, .progress-fill").first().waitFor();
    expect(await moving()).toBe(0);
    e.fakes.control.reset();
  }, 40_000);
});
