import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { seedConversation } from "../server/history/history.helpers.ts";
import { routeFetchTo, useDom } from "./dom.ts";
import { fireEvent, render, within } from "./rtl.ts";

useDom();
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe("conversation export buttons", () => {
  test("past the export limit, the server's French 429 is shown, not a generic error", async () => {
    const t = await createTestApp();
    const { user, token } = await makeUser(t.db, t.clock.now());
    const id = await seedConversation({ ...t, user, token }, "Comment tailler un rosier ?", "En fin d'hiver.");
    for (let i = 0; i < 5; i++) await (await t.app.request(`/api/unisson/conversation/${id}/export`, { headers: { authorization: `Bearer ${token}` } })).text();
    localStorage.setItem("unisson_token", token);
    restore = routeFetchTo(t.app);
    const { ExportButtons } = await import("../../web/features/chat/export-buttons.tsx");
    const view = render(<ExportButtons conversationId={id} />);
    fireEvent.click(within(view.container).getByRole("button", { name: "Markdown" }));
    expect((await within(view.container).findByRole("alert")).textContent).toBe(
      "Vous avez lancé beaucoup d'exports en peu de temps (5 par heure au plus). Veuillez réessayer plus tard.",
    );
  });
});
