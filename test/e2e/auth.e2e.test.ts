import { describe, expect, test } from "bun:test";
import { extractCode, extractResetLink } from "../fakes/smtp.ts";
import { DESKTOP, ensureChromium, PHONE, registerThroughUi, shot, useE2E } from "./harness.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const ADMIN = { email: "admin@example.fr", password: "Admin-Secret-42" };

describe.skipIf(!!skip)("e2e: two-factor login and password reset", () => {
  // Admins need the second factor by default (TWO_FACTOR=admins).
  const world = useE2E({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });

  test("login with two-factor, the code read from the test SMTP server", async () => {
    const e = world();
    const { page, errors } = await e.newPage(PHONE);
    await page.goto("/");
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Mot de passe", { exact: true }).fill(ADMIN.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.getByRole("heading", { name: "Vérification en deux étapes" }).waitFor();
    const mail = await e.smtp.waitForMessage((m) => m.to.includes(ADMIN.email), 10_000);
    await expect(page.getByRole("button", { name: /Renvoyer dans 0:5\d|Renvoyer dans 1:00/ }).isDisabled()).resolves.toBe(true);
    await page.getByLabel("Code de vérification").fill(extractCode(mail));
    await shot(page, "two-factor-phone");
    // The spam tip keeps its distance from the Annuler button above it (issue 32).
    const cancelBottom = await page.getByRole("button", { name: "Annuler" }).evaluate((el) => el.getBoundingClientRect().bottom);
    const tipTop = await page.getByText(/^Vous ne trouvez pas l.email/).evaluate((el) => el.getBoundingClientRect().top);
    expect(tipTop - cancelBottom).toBeGreaterThanOrEqual(12);
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.getByText("Connexion réussie !").waitFor();
    await page.getByRole("button", { name: "Administration" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await shot(page, "admin-home-phone");
    // Logout revokes the session and clears storage.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await expect(page.evaluate(() => localStorage.getItem("unisson_token"))).resolves.toBeNull();
    expect(errors).toEqual([]);
  }, 60_000);

  test("password reset through the mailed link", async () => {
    const e = world();
    const { page, errors } = await e.newPage(DESKTOP);
    const who = { first: "Inès", last: "Morel", email: "ines@example.fr", password: "Girafe-Secret-123" };
    await registerThroughUi(page, who);
    await page.getByRole("button", { name: "Déconnexion" }).click();

    await page.getByRole("button", { name: "Mot de passe oublié ?" }).click();
    await page.getByRole("button", { name: "Envoyer le lien" }).click();
    await page.getByText("Veuillez saisir votre adresse email").waitFor();
    await page.getByLabel("Email").fill(who.email);
    await page.getByRole("button", { name: "Envoyer le lien" }).click();
    await page.getByText("Vérifiez votre boîte mail").waitFor();
    const mail = await e.smtp.waitForMessage((m) => m.to.includes(who.email) && /r[ée]initialis/i.test(m.subject), 10_000);
    const link = new URL(extractResetLink(mail));
    await page.goto(`${e.url}${link.pathname}${link.search}`);
    await page.getByRole("heading", { name: "Nouveau mot de passe" }).waitFor();
    // The token left the address bar.
    expect(new URL(page.url()).searchParams.get("token")).toBeNull();
    await page.locator('input[name="new-password"]').fill("abc");
    await page.waitForFunction(() => document.querySelectorAll('.criteria li[data-met="false"]').length === 4);
    await shot(page, "reset-criteria-desktop");
    await page.locator('input[name="new-password"]').fill("NouveauMdp9");
    await page.getByLabel("Confirmer le nouveau mot de passe").fill("NouveauMdp9");
    await page.getByRole("button", { name: "Changer le mot de passe" }).click();
    await page.getByText("Votre mot de passe a été modifié. Vous pouvez maintenant vous connecter.").waitFor();
    await page.getByRole("button", { name: "Se connecter" }).click();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Mot de passe", { exact: true }).fill("NouveauMdp9");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.getByRole("button", { name: "Déconnexion" }).waitFor();

    // The same link again: single use.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.goto(`${e.url}${link.pathname}${link.search}`);
    await page.getByText("Ce lien de réinitialisation est invalide ou a expiré.").waitFor();
    await shot(page, "reset-invalid-desktop");
    expect(errors.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
  }, 60_000);
});
