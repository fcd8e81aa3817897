import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { askReady, chatApp, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();

const rename = (t: { call: Awaited<ReturnType<typeof chatApp>>["call"] }, token: string, id: number | string, json: unknown) =>
  t.call("PATCH", `/api/unisson/conversation/${id}`, { token, json });

describe("renaming a conversation", () => {
  test("PATCH /conversation/{id} sets the title the history and the conversation show", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const res = await rename(t, t.token, id, { title: "  Géographie\nde la France  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, title: "Géographie de la France" });
    expect((await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.title).toBe("Géographie de la France");
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations[0].title).toBe("Géographie de la France");
  });

  test("a rename does not move the conversation up the history", async () => {
    const t = await chatApp(fakes());
    const older = await askReady(t, "Quelle est la capitale de la France ?");
    t.clock.advance(60_000);
    const newer = await askReady(t, "Quelle est la capitale de l'Italie ?");
    t.clock.advance(60_000);
    await rename(t, t.token, older, { title: "France" });
    const list = (await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations;
    expect(list.map((c: { id: number }) => c.id)).toEqual([newer, older]);
  });

  test("200 characters are accepted, 201 refused in French", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    expect((await rename(t, t.token, id, { title: "é".repeat(200) })).status).toBe(200);
    const res = await rename(t, t.token, id, { title: "é".repeat(201) });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le titre est trop long (200 caractères au plus).");
  });

  test("an empty or blank title: 400 in French, the title unchanged", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const res = await rename(t, t.token, id, { title: " \n " });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le titre ne peut pas être vide.");
    expect((await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.title).toBe("Quelle est la capitale de la France ?");
  });

  test("a title that is not text, or missing: 400 in French", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    for (const body of [{ title: 42 }, {}, { title: null }]) {
      const res = await rename(t, t.token, id, body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe("Le titre doit être un texte.");
    }
  });

  test("a control character: 400 in French", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const res = await rename(t, t.token, id, { title: "Titre\u0007sonore" });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Ce champ contient des caractères non autorisés.");
  });

  test("a bad conversation id: 400 in French", async () => {
    const t = await chatApp(fakes());
    const res = await rename(t, t.token, "abc", { title: "Titre" });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Identifiant de conversation invalide.");
  });

  test("another user's conversation: 404, as if it did not exist, and its title stays", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const res = await rename(t, other.token, id, { title: "Volé" });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Conversation introuvable.");
    expect((await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.title).toBe("Quelle est la capitale de la France ?");
  });

  test("without a session: 401", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    expect((await t.call("PATCH", `/api/unisson/conversation/${id}`, { json: { title: "Titre" } })).status).toBe(401);
  });
});
