import type { Locator, Page } from "playwright-core";
import type { PublicUser } from "../../src/users/users.view.ts";

/**
 * What a finger would hit at the centre of an element: true when the centre
 * is on screen and the topmost element there is the element or inside it
 * (nothing fixed or overlapping covers it).
 */
export async function hitTestable(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (r.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return !!top && (top === el || el.contains(top));
  });
}

/** How many lines an element's text takes (one rectangle per line box). */
export async function textLines(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size;
  });
}

/** Registers a user through the API and stores the session the way the SPA does; returns the token. */
export async function registerThroughApi(page: Page, who: { first: string; last: string; email: string; password: string }): Promise<string> {
  const res = await page.request.post("/api/auth/register", {
    data: { email: who.email, password: who.password, first_name: who.first, last_name: who.last },
  });
  if (!res.ok()) throw new Error(`register: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: unknown };
  await page.goto("/");
  // The login screen mounted first: a page that mounted after the session was stored would open the app and load its
  // code while the test goes on (it wrote the stored user back over a test's, and its chunks counted as the next page's).
  await page.getByRole("heading", { name: "Connexion" }).waitFor();
  await page.evaluate(({ token, user }) => {
    localStorage.setItem("unisson_token", token);
    localStorage.setItem("unisson_user", JSON.stringify(user));
  }, body);
  return body.token;
}

/** One full request (chat then final processing) through the API, as the SPA makes it. */
export async function askThroughApi(page: Page, token: string, message: string): Promise<void> {
  const headers = { Authorization: `Bearer ${token}` };
  const chat = await page.request.post("/api/unisson/chat", { headers, data: { conversation_id: null, message } });
  if (!chat.ok()) throw new Error(`chat: ${chat.status()} ${await chat.text()}`);
  const { conversation_id } = (await chat.json()) as { conversation_id: number };
  const done = await page.request.post("/api/unisson/process", { headers, data: { conversation_id } });
  if (!done.ok()) throw new Error(`process: ${done.status()} ${await done.text()}`);
}

/** Stores a session made on the server's database in the page, the way the SPA keeps one, and reloads into the app. */
export async function storeSession(page: Page, token: string, user: PublicUser): Promise<void> {
  await page.goto("/");
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem("unisson_token", t!);
      localStorage.setItem("unisson_user", u!);
    },
    [token, JSON.stringify(user)],
  );
  await page.reload();
}

/** A question typed in the start screen's box and sent with Enter, once the page knows which models are available. */
export async function askInPage(page: Page, text: string): Promise<void> {
  await page
    .getByText(/\d\/6 IA disponibles/)
    .first()
    .waitFor();
  await page.getByRole("textbox", { name: "Votre question" }).fill(text);
  await page.getByRole("textbox", { name: "Votre question" }).press("Enter");
}
