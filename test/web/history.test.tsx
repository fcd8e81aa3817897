import { afterEach, describe, expect, test } from "bun:test";
import { appendMessages, insertConversation } from "../../src/chat/chat.queries.ts";
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
const HOUR = 3_600_000;

/** A user with `n` conversations, one an hour back from now, and the paths the page asked for. */
async function historyOf(n: number, text = (i: number) => `Question numéro ${i}`) {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now());
  for (let i = n - 1; i >= 0; i--) {
    const at = new Date(Date.now() - i * HOUR);
    const c = await insertConversation(t.db, user.id, text(i), at);
    await appendMessages(t.db, c.id, [{ sender: "user", messageType: null, content: text(i) }], at);
  }
  localStorage.setItem("unisson_token", token);
  const asked: string[] = [];
  restore = routeFetchTo({
    request: (path: string, init?: RequestInit) => {
      asked.push(path);
      return t.app.request(path, init);
    },
  } as never);
  return { t, asked };
}

async function mount() {
  const { HistoryView } = await import("../../web/features/history/history-view.tsx");
  render(<HistoryView status={status} onOpen={async () => {}} onDeleted={() => {}} />);
  return within(document.body);
}

describe("date groups", () => {
  test("Aujourd'hui, Hier, 7 derniers jours, 30 derniers jours, Plus ancien, by calendar day", async () => {
    const { dateGroup, historyRows } = await import("../../web/features/history/history-groups.ts");
    const now = new Date(2026, 10, 23, 10, 0);
    const at = (d: number, h = 12) => new Date(2026, 10, 23 - d, h).toISOString();
    expect([at(0, 0), at(1, 23), at(2), at(6), at(7), at(29), at(30)].map((d) => dateGroup(d, now))).toEqual([
      "today",
      "yesterday",
      "week",
      "week",
      "month",
      "month",
      "older",
    ]);
    const items = [at(0), at(0), at(1), at(40)].map((updated_at, id) => ({
      id,
      title: "t",
      first_message: "",
      message_count: 1,
      attachment_count: 0,
      source: "web",
      updated_at,
      shared: false,
    }));
    const rows = historyRows(items, now, true).map((r) => (r.kind === "group" ? r.label : r.item.id));
    expect(rows).toEqual(["Aujourd'hui", 0, 1, "Hier", 2, "Plus ancien", 3]);
    expect(historyRows(items, now, false).every((r) => r.kind === "item")).toBe(true);
  });
});

describe("history tab", () => {
  test("opens on the first page only, under date headings", async () => {
    const { asked } = await historyOf(120);
    const q = await mount();
    await q.findByText("Question numéro 0", { selector: ".history-title" });
    expect(asked).toEqual(["/api/unisson/history?limit=50"]);
    expect(q.getByRole("heading", { name: "Aujourd'hui" })).toBeTruthy();
    expect(q.getByRole("button", { name: "Charger plus de conversations" })).toBeTruthy();
  });

  test("loads the next pages with the cursor, and the DOM stays a screenful", async () => {
    const { asked } = await historyOf(180);
    const q = await mount();
    await q.findByText("Question numéro 0", { selector: ".history-title" });
    for (let page = 0; page < 2; page++) {
      const more = await q.findByRole("button", { name: "Charger plus de conversations" });
      fireEvent.click(more);
      for (let i = 0; i < 50 && asked.length < page + 2; i++) await act(async () => {});
    }
    for (let i = 0; i < 50 && q.queryByRole("button", { name: "Charger plus de conversations" }); i++) await act(async () => {});
    expect(asked.slice(1).every((p) => /^\/api\/unisson\/history\?limit=100&cursor=\d+\.\d+$/.test(p))).toBe(true);
    expect(q.queryByRole("button", { name: "Charger plus de conversations" })).toBeNull(); // 50 + 100 + 30: the end
    expect(document.querySelectorAll(".history-item").length).toBeLessThan(40);
    const list = document.querySelector<HTMLElement>(".history-list")!;
    expect(Number.parseInt(list.style.height, 10)).toBeGreaterThan(180 * 50); // room for every row, drawn or not
  });

  test("the search box asks once after typing stops, and shows the matches without date headings", async () => {
    const { asked } = await historyOf(30, (i) => (i === 17 ? "Comment tailler mes hortensias ?" : `Question numéro ${i}`));
    const q = await mount();
    await q.findByText("Question numéro 0", { selector: ".history-title" });
    const box = q.getByRole("searchbox", { name: "Rechercher dans vos conversations" });
    for (const typed of ["h", "ho", "hort", "Hortensia"]) fireEvent.change(box, { target: { value: typed } });
    await q.findByText("1 résultat, les plus pertinents d'abord");
    expect(asked.filter((p) => p.includes("q="))).toEqual(["/api/unisson/history?q=Hortensia&limit=100"]);
    expect(q.getByText("Comment tailler mes hortensias ?", { selector: ".history-title" })).toBeTruthy();
    expect(q.queryByRole("heading", { name: "Aujourd'hui" })).toBeNull();
    fireEvent.change(box, { target: { value: "artichaut" } });
    await q.findByText("Aucune conversation ne contient « artichaut ».");
    fireEvent.change(box, { target: { value: "" } });
    await q.findByRole("heading", { name: "Aujourd'hui" });
  });
});
