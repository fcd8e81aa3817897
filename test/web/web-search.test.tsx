import { describe, expect, test } from "bun:test";
import { EMPTY, reduce } from "../../web/features/chat/live/live-state.ts";
import type { RunEvent } from "../../web/features/chat/live/run-stream.ts";
import { WebSourcesStep } from "../../web/features/chat/web-search/web-sources-step.tsx";
import { useDom } from "./dom.ts";
import { render, within } from "./rtl.ts";

useDom();

const ev = (type: string, data: Record<string, unknown> = {}) => ({ id: 0, type, data }) as RunEvent;
const started = reduce(reduce(EMPTY, ev("run_started", { models: ["GPT-4"], skipped: [] })), ev("web_search_started", { query: "Quoi de neuf ?" }));
const source = { n: 1, title: "Article alpha", url: "https://exemple.fr/alpha", domain: "exemple.fr" };

describe("the live step of a run with web search", () => {
  test("while it searches: « Recherche sur le web… »", () => {
    const view = render(<WebSourcesStep web={started.web!} />);
    expect(within(view.container).getByText("Recherche sur le web…")).toBeTruthy();
  });

  test("then the sources found, each a link to its page with its domain", () => {
    const s = reduce(started, ev("web_sources", { sources: [source], notice: null }));
    const view = render(<WebSourcesStep web={s.web!} />);
    const link = within(view.container).getByRole("link", { name: "Article alpha" });
    expect(link.getAttribute("href")).toBe("https://exemple.fr/alpha");
    expect(link.getAttribute("rel")).toContain("noopener");
    expect(within(view.container).getByText("1 source trouvée, donnée à chaque IA :")).toBeTruthy();
  });

  test("a failed search shows its French notice instead", () => {
    const notice = "La recherche web n'a pas pu aboutir : réponse établie sans sources web.";
    const s = reduce(started, ev("web_sources", { sources: [], notice }));
    const view = render(<WebSourcesStep web={s.web!} />);
    expect(within(view.container).getByText(notice)).toBeTruthy();
  });
});

describe("the admin dashboard's web search figures", () => {
  test("searches and pages read per day and per user, as tables", async () => {
    const { AdminWebUsage } = await import("../../web/features/admin/admin-web-usage.tsx");
    const web = {
      per_day: [{ day: "2026-11-28", searches: 3, fetches: 12 }],
      users: [{ user_id: 7, email: "alice@example.fr", searches: 3, fetches: 12 }],
    };
    const view = render(<AdminWebUsage web={web} />);
    const perUser = within(view.container).getByRole("table", { name: "Recherche web : utilisateurs qui cherchent le plus" });
    expect(within(perUser).getByRole("rowheader", { name: "alice@example.fr" })).toBeTruthy();
    expect(within(perUser).getByText("12")).toBeTruthy();
    expect(within(view.container).getByRole("table", { name: "Recherche web par jour" })).toBeTruthy();
  });
});
