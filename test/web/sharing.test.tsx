import { afterEach, describe, expect, test } from "bun:test";
import { appendMessages, insertConversation } from "../../src/chat/chat.queries.ts";
import { createShare } from "../../src/sharing/sharing.service.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { routeFetchTo, useDom } from "./dom.ts";
import { act, fireEvent, render, within } from "./rtl.ts";

useDom();
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

const status = { models: [], aiStatus: [], operational: true, loaded: true, available: 0, total: 0, refresh: async () => {} };
const SOURCE = "https://www.insee.fr/fr/statistiques";

/** A signed-in user with one answered conversation (two models, a cited source); the page talks to the real app. */
async function world() {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now());
  const now = new Date();
  const c = await insertConversation(t.db, user.id, "Capitale de la France", now);
  await appendMessages(
    t.db,
    c.id,
    [
      { sender: "user", messageType: null, content: "Quelle est la capitale de la France ?" },
      {
        sender: "assistant",
        messageType: "final_response",
        content: "La capitale de la France est **Paris**.",
        resultData: {
          models: [
            { name: "GPT-4", status: "answered", answer: "Paris, selon GPT.", citations: [] },
            { name: "Sonar Pro", status: "answered", answer: "Paris, selon Sonar.", citations: [SOURCE] },
          ],
        },
      },
    ],
    now,
  );
  localStorage.setItem("unisson_token", token);
  const sent: string[] = [];
  restore = routeFetchTo({
    request: (path: string, init?: RequestInit) => {
      sent.push(`${init?.method ?? "GET"} ${path}`);
      return t.app.request(path, init);
    },
  } as never);
  const title = () => t.db.$client.query("SELECT title FROM conversations WHERE id = ?").get(c.id) as { title: string };
  const links = () => t.db.$client.query("SELECT include_models FROM shared_links").all() as Array<{ include_models: number }>;
  return { t, user, conversationId: c.id, title, links, sent, q: within(document.body) };
}

describe("rename", () => {
  test("from the history: the new title is saved and shown", async () => {
    const w = await world();
    const { HistoryView } = await import("../../web/features/history/history-view.tsx");
    render(<HistoryView status={status} onOpen={async () => {}} onDeleted={() => {}} />);
    fireEvent.click(await w.q.findByRole("button", { name: "Renommer « Capitale de la France »" }));
    const field = w.q.getByLabelText("Titre") as HTMLInputElement;
    expect(field.value).toBe("Capitale de la France");
    fireEvent.change(field, { target: { value: "Paris, capitale" } });
    fireEvent.click(w.q.getByRole("button", { name: "Enregistrer" }));
    await w.q.findByText("Paris, capitale", { selector: ".history-title" });
    expect(w.title().title).toBe("Paris, capitale");
    expect(w.sent).toContain(`PATCH /api/unisson/conversation/${w.conversationId}`);
  });

  test("an empty or too long title is refused in French before anything is sent", async () => {
    const w = await world();
    const { RenameDialog } = await import("../../web/features/sharing/rename-dialog.tsx");
    let renamed = 0;
    render(<RenameDialog conversationId={w.conversationId} title="Capitale de la France" onClose={() => {}} onRenamed={() => renamed++} />);
    const field = w.q.getByLabelText("Titre");
    fireEvent.change(field, { target: { value: "   " } });
    fireEvent.click(w.q.getByRole("button", { name: "Enregistrer" }));
    expect(w.q.getByText("Le titre ne peut pas être vide.")).toBeTruthy();
    expect(field.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(field, { target: { value: "x".repeat(201) } });
    fireEvent.click(w.q.getByRole("button", { name: "Enregistrer" }));
    expect(w.q.getByText("Le titre est trop long (200 caractères au plus).")).toBeTruthy();
    expect(renamed).toBe(0);
    expect(w.sent.filter((r) => r.startsWith("PATCH"))).toEqual([]);
    expect(w.title().title).toBe("Capitale de la France");
  });

  test("from the conversation bar: the dialog opens on the current title and saves the new one", async () => {
    const w = await world();
    const { ConversationActions } = await import("../../web/features/sharing/conversation-actions.tsx");
    render(<ConversationActions conversationId={w.conversationId} />);
    fireEvent.click(w.q.getByRole("button", { name: "Renommer" }));
    const field = (await w.q.findByLabelText("Titre")) as HTMLInputElement;
    expect(field.value).toBe("Capitale de la France");
    fireEvent.change(field, { target: { value: "Géographie" } });
    fireEvent.click(w.q.getByRole("button", { name: "Enregistrer" }));
    for (let i = 0; i < 100 && w.q.queryByLabelText("Titre"); i++) await act(() => Bun.sleep(10));
    expect(w.q.queryByLabelText("Titre")).toBeNull();
    expect(w.title().title).toBe("Géographie");
  });
});

describe("share", () => {
  test("the dialog makes a link to /partage/ with each model's answer only when ticked", async () => {
    const w = await world();
    const { ShareDialog } = await import("../../web/features/sharing/share-dialog.tsx");
    render(<ShareDialog conversationId={w.conversationId} onClose={() => {}} />);
    const box = w.q.getByLabelText("Inclure la réponse de chaque modèle") as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    fireEvent.click(w.q.getByRole("button", { name: "Créer le lien" }));
    const link = (await w.q.findByLabelText("Lien de partage")) as HTMLInputElement;
    expect(link.value).toMatch(/^http:\/\/localhost:\d+\/partage\/[A-Za-z0-9_-]{43}$/);
    expect(w.q.getByText(/ne pourra pas vous le réafficher/)).toBeTruthy();
    expect(w.links()).toEqual([{ include_models: 1 }]);
  });

  test("the conversation bar's « Partager » opens the dialog", async () => {
    const w = await world();
    const { ConversationActions } = await import("../../web/features/sharing/conversation-actions.tsx");
    render(<ConversationActions conversationId={w.conversationId} />);
    fireEvent.click(w.q.getByRole("button", { name: "Partager" }));
    expect(await w.q.findByRole("dialog", { name: "Partager une copie en lecture seule" })).toBeTruthy();
    fireEvent.click(w.q.getByRole("button", { name: "Créer le lien" }));
    await w.q.findByLabelText("Lien de partage");
    expect(w.links()).toEqual([{ include_models: 0 }]);
  });

  test("the history marks a shared conversation", async () => {
    const w = await world();
    await createShare(w.t.deps, w.user.id, { conversation_id: w.conversationId, include_models: false });
    const { HistoryView } = await import("../../web/features/history/history-view.tsx");
    render(<HistoryView status={status} onOpen={async () => {}} onDeleted={() => {}} />);
    const badge = await w.q.findByText("Partagée");
    expect(badge.getAttribute("title")).toBe("Conversation partagée par un lien");
  });
});

describe("Mon compte: shared links", () => {
  test("lists the links and revokes one after confirmation", async () => {
    const w = await world();
    await createShare(w.t.deps, w.user.id, { conversation_id: w.conversationId, include_models: true });
    const { SharedLinksSection } = await import("../../web/features/sharing/shared-links-section.tsx");
    render(<SharedLinksSection />);
    expect(await w.q.findByText("Capitale de la France")).toBeTruthy();
    expect(w.q.getByText(/avec la réponse de chaque modèle/)).toBeTruthy();
    fireEvent.click(w.q.getByRole("button", { name: "Révoquer le lien de « Capitale de la France »" }));
    const dialog = within(await w.q.findByRole("dialog"));
    fireEvent.click(dialog.getByRole("button", { name: "Révoquer" }));
    await w.q.findByText("Vous n'avez partagé aucune conversation.");
    expect(w.links()).toEqual([]);
  });
});

describe("the shared page", () => {
  test("shows the banner, the question, the answer, its source and each model's answer", async () => {
    const w = await world();
    const { url } = await createShare(w.t.deps, w.user.id, { conversation_id: w.conversationId, include_models: true });
    localStorage.clear(); // anyone: no session
    const { SharedPage } = await import("../../web/features/sharing/shared-page.tsx");
    render(<SharedPage token={new URL(url).pathname.split("/").pop()!} />);
    expect(await w.q.findByRole("heading", { level: 1, name: "Capitale de la France" })).toBeTruthy();
    expect(w.q.getByRole("note").textContent).toContain("Copie partagée d'une conversation Unisson, en lecture seule");
    expect(w.q.getByText("Quelle est la capitale de la France ?")).toBeTruthy();
    expect((await w.q.findByText("Paris")).tagName).toBe("STRONG");
    const source = w.q.getByRole("link", { name: SOURCE });
    expect(source.getAttribute("rel")).toContain("noreferrer");
    expect(w.q.getByText("Réponse de Sonar Pro")).toBeTruthy();
  });

  test("a revoked link says so in French", async () => {
    const w = await world();
    const { SharedPage } = await import("../../web/features/sharing/shared-page.tsx");
    render(<SharedPage token={"A".repeat(43)} />);
    expect(await w.q.findByText("Ce lien de partage a été révoqué, ou la conversation a été supprimée.")).toBeTruthy();
  });

  test("the address /partage/{token} is read as a shared page", async () => {
    const { sharedTokenOf } = await import("../../web/lib/entry-url.ts");
    expect(sharedTokenOf(`/partage/${"b".repeat(43)}`)).toBe("b".repeat(43));
    expect(sharedTokenOf("/partage/")).toBeNull();
    expect(sharedTokenOf("/reset-password")).toBeNull();
  });
});
