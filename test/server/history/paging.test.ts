import { describe, expect, test } from "bun:test";
import { appendMessages } from "../../../src/chat/chat.queries.ts";
import { historyApp, historyIds, seedConversation } from "./history.helpers.ts";

/** n conversations, three to a millisecond so ties on updated_at are the rule, not the exception. */
async function seedMany(t: Awaited<ReturnType<typeof historyApp>>, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) t.clock.advance(1000);
    ids.push(await seedConversation(t, `Question numéro ${i}`));
  }
  return ids;
}

describe("history pages", () => {
  test("no parameters: the newest 50 and a cursor to the next page", async () => {
    const t = await historyApp();
    const ids = await seedMany(t, 60);
    const page = await historyIds(t);
    expect(page.status).toBe(200);
    expect(page.ids).toEqual(ids.slice().reverse().slice(0, 50));
    expect(page.next).toMatch(/^\d+\.\d+$/);
  });

  test("limit and cursor walk the whole history once, and the last page has no cursor", async () => {
    const t = await historyApp();
    const ids = await seedMany(t, 45);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof historyIds>> = await historyIds(t, `?limit=10${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.ids);
      cursor = page.next;
    } while (cursor);
    expect(seen).toEqual(ids.slice().reverse());
  });

  test("a history that changes while it is read: no overlap and no gap", async () => {
    const t = await historyApp();
    const ids = await seedMany(t, 120);
    const first = await historyIds(t, "?limit=50");
    // Meanwhile: a new conversation, an old one answered (it moves to the top), one deleted.
    t.clock.advance(1000);
    const added = await seedConversation(t, "Une question arrivée pendant la lecture");
    const moved = ids[10]!; // on a later page
    await appendMessages(t.db, moved, [{ sender: "assistant", messageType: "final_response", content: "Réponse" }], t.clock.now());
    const deleted = ids[20]!;
    await t.call("DELETE", `/api/unisson/conversation/${deleted}`, { token: t.token });
    const second = await historyIds(t, `?limit=50&cursor=${first.next}`);
    const third = await historyIds(t, `?limit=50&cursor=${second.next}`);
    expect(third.next).toBeNull();

    const read = [...first.ids, ...second.ids, ...third.ids];
    expect(new Set(read).size).toBe(read.length); // no overlap
    const untouched = ids.filter((id) => id !== moved && id !== deleted);
    expect(untouched.filter((id) => !read.includes(id))).toEqual([]); // no gap
    expect(read).not.toContain(added); // newer than the first page: the next refresh shows it
    // The refreshed first page shows what changed, on top.
    expect((await historyIds(t, "?limit=2")).ids).toEqual([moved, added].sort((a, b) => b - a));
  });

  test("limit above 200, zero or not a number: 400 in French", async () => {
    const t = await historyApp();
    for (const q of ["?limit=201", "?limit=0", "?limit=abc"]) {
      const res = await historyIds(t, q);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe("La limite doit être un nombre entre 1 et 200.");
    }
  });

  test("a malformed cursor: 400 in French", async () => {
    const t = await historyApp();
    const res = await historyIds(t, "?cursor=abc");
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Curseur de pagination invalide.");
  });

  test("a page is one range of the (user_id, updated_at) index: no scan, no sort", async () => {
    const t = await historyApp();
    const plan = t.db.$client
      .query(
        `EXPLAIN QUERY PLAN SELECT c.id FROM conversations c WHERE c.user_id = 1 AND (c.updated_at, c.id) < (5, 5)
         ORDER BY c.updated_at DESC, c.id DESC LIMIT 51`,
      )
      .all()
      .map((r: any) => r.detail as string);
    expect(plan.join("\n")).toMatch(/USING (COVERING )?INDEX conversations_user_updated_idx \(user_id=\? AND updated_at<\?\)/);
    expect(plan.join("\n")).not.toContain("TEMP B-TREE");
  });
});
