import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openDb } from "../../src/db/client.ts";
import { toPublicUser } from "../../src/users/users.view.ts";
import { extractResetLink } from "../fakes/smtp.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { checkA11y } from "./a11y-check.ts";
import { DESKTOP, type E2E, ensureChromium, PHONE, shot, useE2E } from "./harness.ts";
import { storeSession, textLines } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const ADMIN = { email: "admin@example.fr", password: "Admin-Secret-42" };
const PASSWORD = "Nuage-Bleu-42";

/**
 * axe on the page as it is, in the light then the dark colour scheme: nothing
 * serious, critical or moderate (issue 32); a picture of each to look at
 * (git-ignored). The dark theme is CSS only (`prefers-color-scheme`, no
 * colour transitions), so switching the emulated scheme restyles the same
 * screen: one tour of the screens per width checks both themes (two tours
 * cost the browser about twice as much: docs/TESTING.md).
 */
async function clean(page: Page, screen: string, size: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const where = `${scheme}, ${size}`;
    await shot(page, `a11y-${screen}-${where}`.replace(/[^\w-]+/g, "-"), false);
    await checkA11y(page, `${screen} (${where})`, ["moderate"]);
  }
}

/** Closes the dialog on top with its close button and waits for it to go. */
async function closeDialog(page: Page) {
  await page.getByRole("dialog").last().getByRole("button", { name: "Fermer" }).first().click();
  await page.getByRole("dialog").waitFor({ state: "detached" });
}

async function signedOutScreens(e: E2E, page: Page, size: string, n: number) {
  await page.goto("/");
  await page.getByRole("heading", { name: "Connexion" }).waitFor();
  await clean(page, "login", size);
  await page.getByRole("button", { name: "Créer un compte" }).click();
  await page.getByLabel("Confirmer le mot de passe").waitFor();
  await page.getByRole("button", { name: "Créer mon compte" }).click(); // with its field errors
  await clean(page, "register, errors shown", size);
  await page.goto("/");
  await page.getByRole("button", { name: "Mot de passe oublié ?" }).click();
  await page.getByRole("heading", { name: "Mot de passe oublié" }).waitFor();
  await clean(page, "forgot password", size);
  await page.goto("/reset-password?token=not-a-real-token");
  await page.getByRole("heading", { name: "Lien invalide" }).waitFor();
  await clean(page, "reset, invalid link", size);

  const email = `reset${n}@example.fr`;
  await page.request.post("/api/auth/register", { data: { email, password: PASSWORD, first_name: "Inès", last_name: "Morel" } });
  await page.request.post("/api/auth/forgot-password", { data: { email } });
  const mail = await e.smtp.waitForMessage((m) => m.to.includes(email) && /r[ée]initialis/i.test(m.subject), 10_000);
  const link = new URL(extractResetLink(mail));
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByRole("heading", { name: "Nouveau mot de passe" }).waitFor();
  await page.locator('input[name="new-password"]').fill("abc");
  await clean(page, "reset, criteria", size);
}

async function appScreens(e: E2E, page: Page, size: string) {
  const db = openDb(join(e.dataDir, "unisson.db"));
  const { user, token } = await makeUser(db, new Date(), { subscriptionType: "pro", planQueries: 30, extraQueries: 100 });
  db.$client.close();
  await storeSession(page, token, toPublicUser(user, new Date()));
  await page.getByText("6/6 IA disponibles").first().waitFor();
  await clean(page, "app start", size);

  await page.getByRole("textbox", { name: "Votre question" }).fill("Quelle est la capitale de la France ?");
  await page.getByRole("button", { name: "Lancer l'analyse" }).click();
  await page.locator(".message.type-final_response").waitFor({ timeout: 20_000 });
  await page.getByRole("button", { name: /voir la réponse de GPT-4/i }).click(); // one model's own answer open
  await clean(page, "conversation with an answer", size);
  await page.getByRole("button", { name: "Agrandir le message" }).last().click();
  await page.getByRole("dialog").waitFor();
  await clean(page, "message detail", size);
  await closeDialog(page);

  await page.getByRole("tab", { name: "Historique" }).click();
  await page.locator(".history-item").first().waitFor();
  await page.getByRole("searchbox").fill("capitale");
  await page
    .getByRole("status")
    .filter({ hasText: /résultat|Aucune conversation/ })
    .waitFor();
  await clean(page, "history, searched", size);
  await page.getByRole("tab", { name: "Nouvelle requête" }).click();

  await page.getByRole("button", { name: "Abonnement", exact: true }).click();
  await page.getByRole("dialog", { name: "Forfaits et abonnement" }).waitFor();
  await page.getByText("Votre abonnement").waitFor();
  await clean(page, "pricing", size);
  await page.getByRole("button", { name: "Fermer" }).first().click();
  await page.getByRole("dialog").waitFor({ state: "detached" });

  for (const name of [
    "Mentions Légales",
    "Conditions Générales d'Utilisation",
    "Conditions Générales de Vente et d'Abonnement",
    "Politique de Confidentialité",
  ]) {
    await page.getByRole("button", { name, exact: true }).click();
    await page.getByRole("dialog", { name }).waitFor();
    await clean(page, name, size);
    // Its text scrolls from the keyboard: the body is in the tab order and Page Down moves it (when it is longer than the screen).
    const body = page.getByRole("region", { name });
    expect(await body.getAttribute("tabindex")).toBe("0");
    if (await body.evaluate((el) => el.scrollHeight > el.clientHeight)) {
      await body.focus();
      await page.keyboard.press("PageDown");
      await page.waitForFunction((el) => (el as HTMLElement).scrollTop > 0, await body.elementHandle());
    }
    await closeDialog(page);
  }
  for (const [button, screen] of [
    ["Nous contacter", "contact"],
    ["Mon compte", "account"],
    ["Voir mon code", "referral code"],
  ] as const) {
    await page.getByRole("button", { name: button, exact: true }).first().click();
    await page.getByRole("dialog").waitFor();
    await page.waitForTimeout(300); // its data
    await clean(page, screen, size);
    await closeDialog(page);
  }

  // A payment return this server cannot verify (no Stripe key): the verification overlay's error state.
  await page.goto("/?session_id=cs_test_unknown");
  await page.getByRole("dialog").waitFor();
  await page.getByRole("dialog").getByRole("button").first().waitFor();
  await clean(page, "payment return", size);
}

async function adminScreens(e: E2E, page: Page, size: string) {
  // The bootstrap admin gets the two-factor screen (TWO_FACTOR=admins by default).
  await page.goto("/");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.getByRole("heading", { name: "Vérification en deux étapes" }).waitFor();
  await clean(page, "two-factor", size);
  // The admin panel, for an admin whose session is made on the database (no code to wait for).
  const db = openDb(join(e.dataDir, "unisson.db"));
  const { user, token } = await makeUser(db, new Date(), { isAdmin: true });
  db.$client.close();
  await storeSession(page, token, toPublicUser(user, new Date()));
  await page.getByRole("button", { name: "Administration" }).click();
  await page.getByRole("heading", { name: "Usage des modèles (30 derniers jours)" }).waitFor();
  await clean(page, "admin dashboard", size);
  await page.getByRole("tab", { name: "Utilisateurs" }).click();
  await page.locator(".admin-table tbody tr").first().waitFor();
  await clean(page, "admin users", size);
  // On a desktop each address is on one line, hyphens and all (makeUser's are "user4-r10izl@example.fr").
  // ...and the table keeps within the page (no sideways scroll).
  if (size === "desktop") {
    for (const cell of await page.locator(".admin-email").all()) expect(await textLines(cell)).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);
    const table = await page.locator(".admin-table").evaluate((el) => el.getBoundingClientRect().right);
    const bar = await page.getByRole("tablist").evaluate((el) => el.getBoundingClientRect().right);
    expect(table).toBeLessThanOrEqual(bar + 1);
  }
  await page
    .getByRole("button", { name: /^Modifier / })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Modifier l'utilisateur" });
  await dialog.getByLabel("Requêtes restantes").fill("-1");
  await dialog.getByRole("button", { name: "Enregistrer" }).click();
  await dialog.getByText("Le nombre de requêtes ne peut pas être négatif").waitFor();
  await clean(page, "admin edit, errors shown", size);
}

let n = 0;
describe.skipIf(!!skip)("e2e: axe on every screen, both themes, both widths (issue 32)", () => {
  const world = useE2E({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });

  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    test(`${size}, light and dark: signed out, the app and its overlays, the admin: 0 serious, 0 moderate`, async () => {
      const e = world();
      const open = async () => (await e.newPage(viewport)).page;
      await signedOutScreens(e, await open(), size, ++n);
      await appScreens(e, await open(), size);
      await adminScreens(e, await open(), size);
    }, 180_000);
  }
});
