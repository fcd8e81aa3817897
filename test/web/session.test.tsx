import { afterEach, describe, expect, test } from "bun:test";
import { toPublicUser } from "../../src/users/users.view.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { useDom } from "./dom.ts";
import { renderApp } from "./render.tsx";

useDom();
let restore: (() => void) | undefined;
afterEach(() => restore?.());

async function seeded(store: (token: string, userJson: string) => void) {
  const { createTestApp } = await import("../helpers/app.ts");
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now(), { firstName: "Hélène" });
  store(token, JSON.stringify(toPublicUser(user, t.clock.now())));
  return { t, user, token };
}

describe("session", () => {
  test("a stored token and user restore the session; the bearer goes on every call", async () => {
    const r = await renderApp();
    restore = r.restore;
    r.cleanup();
    const { user, token } = await makeUser(r.db, r.clock.now(), { firstName: "Hélène" });
    localStorage.setItem("unisson_token", token);
    localStorage.setItem("unisson_user", JSON.stringify(toPublicUser(user, r.clock.now())));
    const { App } = await import("../../web/app.tsx");
    r.render(<App entry={{ reset: false, resetToken: null, paymentSessionId: null }} />);
    await r.q.findByText("Bonjour, Hélène", {}, { timeout: 15_000 });
    // The refresh on entry went through with the bearer: /auth/me answered.
    await new Promise((res) => setTimeout(res, 50));
    expect(r.calls).toContain("GET /api/auth/me");
  });

  test("the legacy 'token' key is read as a fallback", async () => {
    const r = await renderApp();
    restore = r.restore;
    r.cleanup();
    const { user, token } = await makeUser(r.db, r.clock.now(), { firstName: "Hélène" });
    localStorage.setItem("token", token);
    localStorage.setItem("unisson_user", JSON.stringify(toPublicUser(user, r.clock.now())));
    const { App } = await import("../../web/app.tsx");
    r.render(<App entry={{ reset: false, resetToken: null, paymentSessionId: null }} />);
    await r.q.findByText("Bonjour, Hélène", {}, { timeout: 15_000 });
  });

  test("a corrupt stored user clears both keys and shows the login", async () => {
    localStorage.setItem("unisson_token", "t".repeat(43));
    localStorage.setItem("unisson_user", "{not json");
    const r = await renderApp();
    restore = r.restore;
    expect(r.q.getByRole("heading", { name: "Connexion" })).toBeTruthy();
    expect(localStorage.getItem("unisson_token")).toBeNull();
    expect(localStorage.getItem("unisson_user")).toBeNull();
  });

  test("a 401 on the refresh logs out", async () => {
    const { t, user } = await seeded((_token, json) => {
      localStorage.setItem("unisson_token", "revoked-or-unknown-token-0123456789");
      localStorage.setItem("unisson_user", json);
    });
    const { routeFetchTo } = await import("./dom.ts");
    restore = routeFetchTo(t.app);
    const { App } = await import("../../web/app.tsx");
    const { render, within } = await import("./rtl.ts");
    render(<App entry={{ reset: false, resetToken: null, paymentSessionId: null }} />);
    const q = within(document.body);
    await q.findByRole("heading", { name: "Connexion" }, { timeout: 15_000 });
    expect(localStorage.getItem("unisson_token")).toBeNull();
    expect(user.id).toBeGreaterThan(0);
  });

  test("logout revokes the session on the server and clears storage", async () => {
    const { t, token } = await seeded((token, json) => {
      localStorage.setItem("unisson_token", token);
      localStorage.setItem("unisson_user", json);
    });
    const { routeFetchTo } = await import("./dom.ts");
    restore = routeFetchTo(t.app);
    const { App } = await import("../../web/app.tsx");
    const { render, within, fireEvent } = await import("./rtl.ts");
    render(<App entry={{ reset: false, resetToken: null, paymentSessionId: null }} />);
    const q = within(document.body);
    fireEvent.click(await q.findByRole("button", { name: "Déconnexion" }, { timeout: 15_000 }));
    await q.findByRole("heading", { name: "Connexion" });
    expect(localStorage.getItem("unisson_token")).toBeNull();
    expect(localStorage.getItem("unisson_user")).toBeNull();
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
  });
});
