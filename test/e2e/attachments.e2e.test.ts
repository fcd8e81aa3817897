import { describe, expect, test } from "bun:test";
import { jpeg, png, textPdf } from "../helpers/attachment-files.ts";
import { bytes, dragAndDrop, pasteFile, payload } from "./attachment-files.ts";
import { checkA11y, checkContrast } from "./a11y-check.ts";
import { DESKTOP, ensureChromium, PHONE, shot, useE2E } from "./harness.ts";
import { hitTestable, registerThroughApi } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

const SIZES = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;
const MB = 1024 * 1024;
let n = 0;
const someone = () => ({ first: "Inès", last: "Morel", email: `files${++n}@example.fr`, password: "Nuage-Bleu-42" });

describe.skipIf(!!skip)("e2e: attaching files to a question (issue 33)", () => {
  const world = useE2E();

  /** A signed-in page on the start screen at `size`. */
  async function start(size: { width: number; height: number }) {
    const { page, errors } = await world().newPage(size);
    await registerThroughApi(page, someone());
    await page.goto("/");
    await page.getByRole("textbox", { name: "Votre question" }).waitFor();
    return { page, errors, chips: page.getByRole("list", { name: "Fichiers joints" }) };
  }

  for (const [name, size] of SIZES) {
    test(`${name}: files refused in the page are named with the reason, before any upload`, async () => {
      const { page, errors, chips } = await start(size);
      const uploads: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/attachments")) uploads.push(r.url());
      });
      await page
        .locator('input[type="file"]')
        .setInputFiles([
          bytes("scan-complet.pdf", "application/pdf", 12 * MB),
          bytes("logo.svg", "image/svg+xml", 300),
          bytes("programme.exe", "application/x-msdownload", 300),
        ]);
      const alert = page.getByRole("alert");
      await alert.getByText("« scan-complet.pdf » est trop volumineux : 10 Mo au plus par fichier.").waitFor();
      await alert.getByText(/« logo\.svg » n'est pas accepté/).waitFor();
      await alert.getByText(/« programme\.exe » n'est pas accepté/).waitFor();
      expect(await chips.count()).toBe(0);
      await shot(page, `attach-refused-${name}`, false);
      expect(uploads).toEqual([]);
      await checkA11y(page, `attach-refused-${name}`);
      await checkContrast(page, `attach-refused-${name}`);
      // Six text files: five chips, the sixth named as one too many.
      await page.locator('input[type="file"]').setInputFiles([1, 2, 3, 4, 5, 6].map((i) => bytes(`note-${i}.txt`, "text/plain", 2000)));
      await alert.getByText("« note-6.txt » n'est pas ajouté : 5 fichiers au plus par message.").waitFor();
      expect(await chips.getByRole("listitem").count()).toBe(5);
      await shot(page, `attach-five-${name}`, false);
      // Nothing sticks out at 390 px: the box and its chips fit the screen's width.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    }, 90_000);

    test(`${name}: the picker's files become chips (thumbnail for an image), the question goes with them, they open again`, async () => {
      const { page, errors, chips } = await start(size);
      const picture = payload("facture.png", "image/png", await png(900, 600));
      const pdf = payload("devis-toiture.pdf", "application/pdf", await textPdf(1, () => ["Devis toiture : 8 400 euros TTC, validite 30 jours."]));
      expect(await hitTestable(page.getByRole("button", { name: "Joindre des fichiers" }))).toBe(true);
      await page.locator('input[type="file"]').setInputFiles([picture, pdf]);
      await chips.getByText("facture.png").waitFor();
      await chips.getByText(/^PDF · \d/).waitFor();
      // Both uploaded: no spinner left, and the image's chip shows its picture.
      await page
        .getByRole("status", { name: /^Envoi de / })
        .first()
        .waitFor({ state: "detached", timeout: 15_000 });
      const thumb = chips.locator("img.chip-thumb");
      await expect(thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
      await shot(page, `attach-chips-${name}`, false);
      await checkA11y(page, `attach-chips-${name}`);
      await checkContrast(page, `attach-chips-${name}`);
      // The keyboard reaches the chips' remove buttons and the paperclip.
      await page.getByRole("button", { name: "Retirer facture.png" }).focus();
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Retirer devis-toiture.pdf");

      await page.getByRole("textbox", { name: "Votre question" }).fill("Ce devis et cette facture disent-ils le même montant ?");
      await page.getByRole("button", { name: "Lancer l'analyse" }).click();
      const sent = page.getByRole("list", { name: "Pièces jointes du message" }).first();
      await sent.getByRole("button", { name: /^Ouvrir facture\.png/ }).waitFor({ timeout: 20_000 });
      await sent.getByRole("button", { name: /^Ouvrir devis-toiture\.pdf/ }).waitFor();
      // The thumbnail comes from the server (GET /api/attachments/:id/thumbnail), fetched with the token.
      await page.waitForFunction(() => {
        const img = document.querySelector('[aria-label="Pièces jointes du message"] img.chip-thumb') as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      });
      await page.locator(".message.type-final_response").first().waitFor({ timeout: 20_000 });
      await shot(page, `attach-message-${name}`, false);
      // Readable on the user's coloured bubble too (the names were white on white once).
      await checkContrast(page, `attach-message-${name}`);
      await checkA11y(page, `attach-message-${name}`);
      // Downloaded again under its own name, with its bytes.
      const [download] = await Promise.all([page.waitForEvent("download"), sent.getByRole("button", { name: "Télécharger devis-toiture.pdf" }).click()]);
      expect(download.suggestedFilename()).toBe("devis-toiture.pdf");
      // The history says the conversation has files.
      await page.getByRole("tab", { name: "Historique" }).click();
      await page.locator(".history-item").first().getByText("2 pièces jointes").waitFor();
      await shot(page, `attach-history-${name}`, false);
      expect(errors).toEqual([]);
    }, 60_000);
  }

  test("desktop: files dragged over the box show the drop zone; dropped, they become chips", async () => {
    const { page, errors, chips } = await start(DESKTOP);
    const letter = payload("lettre.jpg", "image/jpeg", await jpeg(600, 800));
    const lease = payload("bail.pdf", "application/pdf", await textPdf(2));
    await dragAndDrop(page, "form.composer", [letter, lease], async () => {
      await page.getByText("Déposez vos fichiers ici").waitFor();
      await shot(page, "attach-drop-zone-desktop", false);
    });
    await chips.getByText("lettre.jpg").waitFor();
    await chips.getByText("bail.pdf").waitFor();
    expect(await page.locator("form.composer.drop-over").count()).toBe(0);
    await page
      .getByRole("status", { name: /^Envoi de / })
      .first()
      .waitFor({ state: "detached", timeout: 15_000 });
    await shot(page, "attach-dropped-desktop", false);
    expect(errors).toEqual([]);
  }, 40_000);

  for (const [name, size] of SIZES) {
    test(`${name}: a pasted image is attached; removing it takes it away`, async () => {
      const { page, errors, chips } = await start(size);
      await pasteFile(page, "#question", payload("image.png", "image/png", await png(400, 300)));
      await chips.getByText("image.png").waitFor();
      await page.getByRole("status", { name: "Envoi de image.png" }).waitFor({ state: "detached", timeout: 15_000 });
      await shot(page, `attach-pasted-${name}`, false);
      await page.getByRole("button", { name: "Retirer image.png" }).click();
      expect(await chips.count()).toBe(0);
      expect(errors).toEqual([]);
    }, 40_000);
  }

  test("phone: a file that is not what its name says is refused by the server, named, and Send stays usable", async () => {
    const { page, chips } = await start(PHONE);
    await page.locator('input[type="file"]').setInputFiles([bytes("releve.pdf", "application/pdf", 4000)]);
    const alert = page.getByRole("alert");
    await alert.getByText(/« releve\.pdf » n.est pas accepté/).waitFor({ timeout: 15_000 });
    expect(await chips.count()).toBe(0);
    await shot(page, "attach-server-refused-phone", false);
    await page.getByRole("textbox", { name: "Votre question" }).fill("Bonjour ?");
    expect(await page.getByRole("button", { name: "Lancer l'analyse" }).isEnabled()).toBe(true);
  }, 40_000);

  for (const [name, size] of SIZES) {
    test(`${name}: « Mon compte » shows the files kept against the plan's quota (issue 44)`, async () => {
      const { page, errors, chips } = await start(size);
      const stored = page.waitForResponse((r) => r.url().includes("/api/attachments") && r.request().method() === "POST");
      await page.locator('input[type="file"]').setInputFiles([bytes("notes.txt", "text/plain", 300_000)]);
      await chips.getByText("notes.txt").waitFor();
      expect((await stored).status()).toBe(201);
      await page.getByRole("button", { name: "Mon compte" }).click();
      const dialog = page.getByRole("dialog", { name: "Mon compte" });
      await dialog.getByRole("heading", { name: "Pièces jointes" }).waitFor();
      await dialog.getByText(/^0,3 Mo utilisés sur 50 Mo\./).waitFor();
      expect(await dialog.getByRole("meter", { name: "Pièces jointes" }).getAttribute("value")).toBe("300000");
      await shot(page, `account-storage-${name}`, false);
      await checkA11y(page, `Mon compte, pièces jointes (${name})`);
      expect(errors).toEqual([]);
    }, 40_000);
  }
});
