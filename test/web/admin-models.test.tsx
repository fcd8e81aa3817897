// First: the DOM must exist before react-dom loads.
import { type Routed, retype, routeFetch, signIn, useDom } from "./pricing-harness.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { fireEvent, render, waitFor, within } from "@testing-library/react";
import { listMembers } from "../../src/council/council.store.ts";
import { AdminPanel } from "../../web/features/admin/admin-panel.tsx";
import { fr } from "../../web/i18n/fr.ts";
import { frCouncil } from "../../web/i18n/fr-council.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";

useDom();
const t = frCouncil;
const body = () => within(document.body);

let ctx: TestApp;
let net: Routed;
beforeEach(async () => {
  ctx = await createTestApp({ env: { GOOGLE_API_KEY: "env-key-for-the-panel-7777wxyz", SECRET_KEY: "une-clé-de-test-de-plus-de-32-caractères" } });
  net = routeFetch(ctx.app);
});
afterEach(() => net.restore());

async function openModels() {
  const { user, token } = await makeUser(ctx.db, ctx.clock.now(), { isAdmin: true, firstName: "Alice", lastName: "Admin" });
  render(<AdminPanel user={signIn(user, token, ctx.clock.now())} onBack={() => {}} />);
  fireEvent.click(await body().findByRole("tab", { name: fr.admin.tabs.models }));
  await body().findByRole("rowheader", { name: /GPT-4/ });
  return token;
}

/** Opens « Ajouter un modèle », types the fields given by their labels, saves; returns the dialog. */
async function addThroughDialog(fields: Record<string, string>) {
  fireEvent.click(body().getByRole("button", { name: t.add }));
  const dialog = within(await body().findByRole("dialog", { name: t.form.addTitle }));
  for (const [label, value] of Object.entries(fields)) await retype(dialog.getByLabelText(label), value);
  fireEvent.click(dialog.getByRole("button", { name: t.form.save }));
  return dialog;
}

const row = (name: RegExp) => within(body().getByRole("rowheader", { name }).closest("tr")!);

describe("admin panel, « Modèles »", () => {
  test("lists the six members with their status and keys masked to 4 characters", async () => {
    await openModels();
    expect(body().getAllByRole("row")).toHaveLength(7); // the head and six members
    // The SDKs of OpenAI and Anthropic refuse to start in a DOM: Gemini's environment key stands for them.
    expect(row(/Gemini Pro/).getByText("••••wxyz")).toBeTruthy();
    expect(document.body.textContent).not.toContain("env-key-for-the-panel");
    expect(row(/GPT-4/).getByText(t.status.unknown)).toBeTruthy();
    expect(body().getByText("6 actif(s) sur 6")).toBeTruthy();
  });

  test("an invalid member is refused with the server's French message in the dialog", async () => {
    await openModels();
    const dialog = await addThroughDialog({ [t.form.name]: "Llama local", [t.form.model]: "llama3.1:8b", [t.form.baseUrl]: "ftp://example.org" });
    expect(await dialog.findByText("L'adresse du fournisseur doit être une URL http:// ou https://")).toBeTruthy();
  });

  test("a new member is added with its key shown as its last 4 characters only", async () => {
    await openModels();
    await addThroughDialog({
      [t.form.name]: "Llama local",
      [t.form.model]: "llama3.1:8b",
      [t.form.baseUrl]: "http://127.0.0.1:11434/v1",
      [t.form.apiKey]: "sk-typed-secret-0042abcd",
    });
    await body().findByText("Modèle enregistré : Llama local");
    expect(row(/Llama local/).getByText("••••abcd")).toBeTruthy();
    expect(document.body.textContent).not.toContain("sk-typed-secret");
  });

  test("renaming a seeded member sends the name only: its model still follows MODEL_GPT4", async () => {
    await openModels();
    fireEvent.click(body().getByRole("button", { name: "Modifier GPT-4" }));
    const dialog = within(await body().findByRole("dialog", { name: "Modifier GPT-4" }));
    await retype(dialog.getByLabelText(t.form.name), "GPT-4o");
    fireEvent.click(dialog.getByRole("button", { name: t.form.save }));
    await body().findByText("Modèle enregistré : GPT-4o");
    const row = (await listMembers(ctx.db)).find((m) => m.name === "GPT-4o");
    expect(row).toMatchObject({ builtinKey: "gpt4", model: null, baseUrl: null, priceInEur: null });
  });

  test("« Désactiver » disables a member; the row then offers « Activer »", async () => {
    await openModels();
    fireEvent.click(body().getByRole("button", { name: "Désactiver Sonar Pro" }));
    await body().findByRole("button", { name: "Activer Sonar Pro" });
    expect(body().getByText("5 actif(s) sur 6")).toBeTruthy();
  });

  test("the synthesisers are reordered with the buttons and saved in that order", async () => {
    const token = await openModels();
    const list = () => body().getByRole("region", { name: t.synth.title });
    const names = () => [...list().querySelectorAll(".admin-synth-name")].map((e) => e.textContent ?? "");
    const [first = "", second = "", ...rest] = names();
    fireEvent.click(within(list()).getByRole("button", { name: `Descendre ${first}` }));
    expect(names()).toEqual([second, first, ...rest]);
    fireEvent.click(within(list()).getByRole("button", { name: t.synth.save }));
    await body().findByText(t.synth.saved);
    const stored = (await ctx.call("GET", "/api/admin/council", { token })).body.settings.synthesisers;
    expect(stored).toEqual([second, first, ...rest]);
    await waitFor(() => expect(names()).toEqual(stored));
  });

  test("a reload of the tab (another setting saved) keeps an order not yet saved", async () => {
    await openModels();
    const list = () => body().getByRole("region", { name: t.synth.title });
    const names = () => [...list().querySelectorAll(".admin-synth-name")].map((e) => e.textContent ?? "");
    const [first = "", second = "", ...rest] = names();
    fireEvent.click(within(list()).getByRole("button", { name: `Descendre ${first}` }));
    fireEvent.click(body().getByRole("checkbox", { name: t.settings.peerReview }));
    await body().findByText(t.settings.saved);
    await waitFor(() => expect((body().getByRole("checkbox", { name: t.settings.peerReview }) as HTMLInputElement).checked).toBe(true));
    expect(names()).toEqual([second, first, ...rest]);
  });

  test("« Délibération » is off by default; ticking it saves the council setting", async () => {
    const token = await openModels();
    const box = body().getByRole("checkbox", { name: t.settings.peerReview }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await body().findByText(t.settings.saved);
    expect((await ctx.call("GET", "/api/admin/council", { token })).body.settings.peer_review).toBe(true);
    await waitFor(() => expect((body().getByRole("checkbox", { name: t.settings.peerReview }) as HTMLInputElement).checked).toBe(true));
  });

  test("the moderation model shows its default as placeholder; a typed id is saved, emptied goes back to the default", async () => {
    const token = await openModels();
    const field = () => body().getByLabelText(t.settings.moderationModel) as HTMLInputElement;
    const button = () => body().getByRole("button", { name: t.settings.moderationSave }) as HTMLButtonElement;
    const settings = async () => (await ctx.call("GET", "/api/admin/council", { token })).body.settings;
    expect(field().value).toBe("");
    expect(field().placeholder).toBe("omni-moderation-latest");
    await retype(field(), "text-moderation-007");
    fireEvent.click(button());
    await body().findByText(t.settings.saved);
    // Reloaded: the field shows what is stored, so there is nothing left to save.
    await waitFor(() => expect(button().disabled).toBe(true));
    expect(field().value).toBe("text-moderation-007");
    expect((await settings()).moderation_model).toBe("text-moderation-007");
    await retype(field(), "");
    fireEvent.click(button());
    await waitFor(async () => expect((await settings()).moderation_model).toBeNull());
  });

  test("an invalid moderation model is refused with the server's French message", async () => {
    await openModels();
    await retype(body().getByLabelText(t.settings.moderationModel), "omni moderation");
    fireEvent.click(body().getByRole("button", { name: t.settings.moderationSave }));
    expect(
      await body().findByText("Le modèle de modération doit être un identifiant de modèle OpenAI (1 à 100 caractères : lettres, chiffres, . _ : -)"),
    ).toBeTruthy();
  });
});
