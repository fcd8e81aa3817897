import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { appendMessages, insertConversation } from "../../src/chat/chat.queries.ts";
import { openDb } from "../../src/db/client.ts";
import { toPublicUser } from "../../src/users/users.view.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { checkA11y } from "./a11y-check.ts";
import { DESKTOP, type E2E, PHONE, shot, useE2E } from "./harness.ts";

const world = useE2E();
const SOURCE = "https://www.insee.fr/fr/statistiques/1281162";
const ANSWER = `La capitale de la France est **Paris**, siège des pouvoirs publics depuis 1871 (hors 1940-1944).

- Population de la commune : environ 2,1 millions d'habitants.
- Aire d'attraction : plus de 13 millions d'habitants.

Les modèles concordent : aucune ambiguïté sur ce point.`;

/** A signed-in user (stored session) with one answered conversation, in the server's own database. */
async function signedInWithAnswer(e: E2E, size: { width: number; height: number }) {
  const db = openDb(join(e.dataDir, "unisson.db"));
  const { user, token } = await makeUser(db, new Date(), { firstName: "Zoé", lastName: "Quintaloup" });
  const now = new Date();
  const c = await insertConversation(db, user.id, "Quelle est la capitale de la France ?", now);
  await appendMessages(
    db,
    c.id,
    [
      { sender: "user", messageType: null, content: "Quelle est la capitale de la France ?" },
      {
        sender: "assistant",
        messageType: "final_response",
        content: ANSWER,
        resultData: {
          primary_ai: "Claude Opus 4.1",
          models: [
            { name: "GPT-4", status: "answered", answer: "Paris est la capitale de la France.", citations: [], cost_eur: 0.01 },
            { name: "Sonar Pro", status: "answered", answer: "Paris [1].", citations: [SOURCE], cost_eur: 0.02 },
          ],
          cost_eur: 0.05,
        },
      },
    ],
    now,
  );
  db.$client.close();
  const { page, errors } = await e.newPage(size);
  await page.goto("/");
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem("unisson_token", t!);
      localStorage.setItem("unisson_user", u!);
    },
    [token, JSON.stringify(toPublicUser(user, new Date()))],
  );
  await page.reload();
  await page.getByRole("tab", { name: "Historique" }).waitFor();
  return { page, errors, user };
}

for (const [label, size] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  describe(`rename and share on a ${label} (${size.width}×${size.height})`, () => {
    test("rename from the history, share with each model's answer, read the copy signed out, revoke it", async () => {
      const e = world();
      const { page, errors } = await signedInWithAnswer(e, size);

      // Rename from the history.
      await page.getByRole("tab", { name: "Historique" }).click();
      await page.getByRole("button", { name: "Renommer « Quelle est la capitale de la France ? »" }).click();
      await page.getByLabel("Titre").fill("Capitale de la France");
      await page.getByRole("button", { name: "Enregistrer" }).click();
      await page.locator(".history-title", { hasText: "Capitale de la France" }).waitFor();

      // Open it and share it.
      await page.locator(".history-open").first().click();
      await page.getByRole("button", { name: "Partager" }).waitFor();
      await shot(page, `conversation-bar-${label}`, false);
      await page.getByRole("button", { name: "Partager" }).click();
      await page.getByLabel("Inclure la réponse de chaque modèle").check();
      await shot(page, `share-dialog-${label}`, false);
      await checkA11y(page, "share dialog");
      await page.getByRole("button", { name: "Créer le lien" }).click();
      const link = await page.getByLabel("Lien de partage").inputValue();
      expect(link).toMatch(/\/partage\/[A-Za-z0-9_-]{43}$/);
      await shot(page, `share-dialog-link-${label}`, false);
      await page.getByRole("button", { name: "Terminé" }).click();

      // Anyone with the link: a fresh context, no session.
      const visitor = await e.newPage(size);
      const fetched: string[] = [];
      visitor.page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
      const res = await visitor.page.goto(new URL(link).pathname);
      expect(res!.headers()["x-robots-tag"]).toContain("noindex");
      await visitor.page.getByRole("heading", { level: 1, name: "Capitale de la France" }).waitFor();
      expect(await visitor.page.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
      await visitor.page.getByText("Réponse de Sonar Pro").click();
      const text = await visitor.page.locator("body").innerText();
      expect(text).toContain("Copie partagée d'une conversation Unisson");
      expect(text).toContain(SOURCE);
      for (const personal of ["Zoé", "Quintaloup", "€", "Déconnexion"]) expect(text).not.toContain(personal);
      // Only the copy is asked for: no session call, and the boot script preloads neither the sign-in nor the app.
      expect(fetched.filter((p) => p.startsWith("/api/"))).toEqual([`/api/shared/${new URL(link).pathname.split("/").pop()}`]);
      await shot(visitor.page, `shared-page-${label}`);
      await checkA11y(visitor.page, "shared page");
      expect(visitor.errors).toEqual([]);

      // The history marks it; « Mon compte » revokes it; the link then opens the 404 page.
      await page.getByRole("tab", { name: "Historique" }).click();
      await page.locator(".history-shared").first().waitFor();
      await page.getByRole("button", { name: "Mon compte" }).click();
      await page.getByRole("button", { name: "Révoquer le lien de « Capitale de la France »" }).click();
      await shot(page, `shared-links-revoke-${label}`, false);
      await page.locator(".u-confirm").getByRole("button", { name: "Révoquer" }).click();
      await page.getByText("Vous n'avez partagé aucune conversation.").waitFor();
      const gone = await visitor.page.goto(new URL(link).pathname);
      expect(gone!.status()).toBe(404);
      await visitor.page.getByRole("heading", { name: "Lien de partage introuvable" }).waitFor();
      expect(errors).toEqual([]);
    }, 90_000);
  });
}
