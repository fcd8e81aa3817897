import { appendMessages, insertConversation } from "../../../src/chat/chat.queries.ts";
import { transaction } from "../../../src/db/transaction.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/** An app with a signed-in user and no providers: history reads need none. */
export async function historyApp() {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now());
  return { ...t, user, token };
}

export type HistoryApp = Awaited<ReturnType<typeof historyApp>>;

/** A conversation written the way the chat writes it (same queries, so the search index follows). */
export async function seedConversation(t: HistoryApp, question: string, answer?: string, userId = t.user.id): Promise<number> {
  const now = t.clock.now();
  return await transaction(t.db, async (tx) => {
    const c = await insertConversation(tx, userId, question.slice(0, 50), now);
    await appendMessages(tx, c.id, [{ sender: "user", messageType: null, content: question }], now);
    if (answer) await appendMessages(tx, c.id, [{ sender: "assistant", messageType: "final_response", content: answer }], now);
    return c.id;
  });
}

export async function historyIds(t: HistoryApp, query = ""): Promise<{ ids: number[]; next: string | null; status: number; body: any }> {
  const res = await t.call("GET", `/api/unisson/history${query}`, { token: t.token });
  return { ids: (res.body?.conversations ?? []).map((c: { id: number }) => c.id), next: res.body?.next_cursor ?? null, status: res.status, body: res.body };
}
