import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { checkA11y } from "./a11y-check.ts";
import { DESKTOP, ensureChromium, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

describe.skipIf(!!skip)("e2e: the « Clés d'API » section of the subscription overlay", () => {
  const e = useE2E();

  const section = (page: Page) => page.locator("section.api-keys");

  async function openKeys(page: Page) {
    await page.getByRole("button", { name: "Abonnement", exact: true }).click();
    await section(page).getByRole("heading", { name: "Clés d'API" }).waitFor();
    await page.waitForLoadState("networkidle");
  }

  const models = (secret: string) => fetch(`${e().url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });

  for (const [label, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    test(`${label}: create a key, copy it once, use it, revoke it`, async () => {
      const { page, context, errors } = await e().newPage(size);
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await registerThroughUi(page, { first: "Nina", last: "Api", email: `nina-${label}@example.fr`, password: "Nuage-Bleu-42" });
      await openKeys(page);
      // The list arrives after the section opens: wait for it (an instant isVisible() raced it under load).
      await section(page).getByText("Aucune clé d'API pour l'instant.").waitFor();

      await section(page).getByLabel("Nom de la nouvelle clé").fill("Open WebUI");
      await section(page).getByRole("button", { name: "Créer une clé" }).click();
      const secretBox = section(page).getByTestId("api-key-secret");
      await secretBox.waitFor();
      const secret = (await secretBox.textContent())!.trim();
      expect(secret).toMatch(/^uns_[A-Za-z0-9_-]{43}$/);
      await section(page).getByRole("button", { name: "Copier" }).click();
      await section(page).getByRole("button", { name: "Copiée" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await section(page).getByRole("listitem").filter({ hasText: "Open WebUI" }).waitFor();
      await section(page).getByText("Exemple").click();
      await section(page).scrollIntoViewIfNeeded();
      await shot(page, `api-keys-created-${label}`, false);
      await checkA11y(page, `api keys (${label})`);
      expect((await models(secret)).status).toBe(200);

      // Shown once: dismissed, it is gone for good; the list keeps only the prefix.
      await section(page).getByRole("button", { name: "J'ai copié la clé" }).click();
      await expect(secretBox.count()).resolves.toBe(0);
      expect(await section(page).textContent()).not.toContain(secret);
      await section(page)
        .getByText(`${secret.slice(0, 12)}…`)
        .waitFor();

      await section(page).getByRole("button", { name: "Révoquer la clé Open WebUI" }).click();
      const confirm = page.getByRole("dialog", { name: "Révoquer" });
      await confirm.getByRole("button", { name: "Révoquer" }).click();
      await section(page).getByText("Aucune clé d'API pour l'instant.").waitFor();
      await shot(page, `api-keys-revoked-${label}`, false);
      expect((await models(secret)).status).toBe(401);
      expect(errors).toEqual([]);
    }, 60_000);
  }
});
