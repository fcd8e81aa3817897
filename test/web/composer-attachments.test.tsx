import { afterEach, describe, expect, test } from "bun:test";
// The uploads themselves (the server stores, refuses with 413/415, serves thumbnails) are checked end to end in
// test/e2e/attachments.e2e.test.ts: an upload from happy-dom does not reach the in-process app as multipart.
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { routeFetchTo, useDom } from "./dom.ts";
import { fireEvent, render, within } from "./rtl.ts";

useDom();
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

const MB = 1024 * 1024;
/** A file of `size` bytes (its bytes are zeros: the page never reads them, the server does). */
const file = (name: string, type: string, size = 1000) => new File([new Uint8Array(size)], name, { type });

/** The question box, signed in against a real in-process app; `sent` collects what Send hands over. */
async function composer(limits?: { maxMb: number; perMessage: number; accept: string[] }) {
  const t = await createTestApp();
  const { token } = await makeUser(t.db, t.clock.now());
  localStorage.setItem("unisson_token", token);
  restore = routeFetchTo(t.app);
  const { Composer } = await import("../../web/features/chat/composer.tsx");
  const sent: { text: string; ids: number[] }[] = [];
  const view = render(
    <Composer
      large
      disabled={false}
      busy={false}
      label="Votre question"
      placeholder="…"
      submitLabel="Lancer l'analyse"
      limits={limits}
      onSend={async (text, attachments) => {
        sent.push({ text, ids: attachments.map((a) => a.id) });
        return true;
      }}
    />,
  );
  const q = within(view.container);
  const input = view.container.querySelector('input[type="file"]') as HTMLInputElement;
  const pick = (...files: File[]) => fireEvent.change(input, { target: { files } });
  return { q, input, pick, sent, form: view.container.querySelector("form") as HTMLFormElement };
}

describe("composer: attaching files (issue 33)", () => {
  test("a labelled button opens the picker, which accepts the allowed types and several files", async () => {
    const { q, input } = await composer();
    const button = q.getByRole("button", { name: "Joindre des fichiers" });
    let opened = false;
    input.addEventListener("click", () => {
      opened = true;
    });
    fireEvent.click(button);
    expect(opened).toBe(true);
    expect(input.multiple).toBe(true);
    for (const type of ["application/pdf", ".docx", "text/plain", ".md", ".csv", "image/png", "image/jpeg", "image/webp", "image/gif"]) {
      expect(input.accept.split(",")).toContain(type);
    }
  });

  test("a picked file shows as a chip: name, type, size in French units, and a remove button", async () => {
    const { q, pick } = await composer();
    pick(file("avis-impot.pdf", "application/pdf", Math.round(1.2 * MB)));
    const chips = q.getByRole("list", { name: "Fichiers joints" });
    expect(chips.textContent).toContain("avis-impot.pdf");
    expect(chips.textContent).toContain("PDF · 1,2 Mo");
    expect(within(chips).getByRole("button", { name: "Retirer avis-impot.pdf" })).toBeTruthy();
  });

  test("the remove button takes the file away", async () => {
    const { q, pick } = await composer();
    pick(file("bail.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"), file("notes.md", ""));
    expect(q.getByRole("list", { name: "Fichiers joints" }).textContent).toContain("Markdown · 1000 o");
    fireEvent.click(q.getByRole("button", { name: "Retirer bail.docx" }));
    expect(q.queryByText("bail.docx")).toBeNull();
    expect(q.getByText("notes.md")).toBeTruthy();
  });

  test("an image's chip has a thumbnail", async () => {
    const { q, pick } = await composer();
    pick(file("photo.jpg", "image/jpeg", 2048));
    const img = q.getByRole("list", { name: "Fichiers joints" }).querySelector("img.chip-thumb") as HTMLImageElement;
    expect(img.src).toStartWith("blob:");
    expect(q.getByText("Image JPEG · 2 Ko")).toBeTruthy();
  });

  test("a file too large is refused before upload, named, with the limit", async () => {
    const { q, pick } = await composer();
    pick(file("scan.pdf", "application/pdf", 12 * MB));
    expect(q.getByRole("alert").textContent).toContain("« scan.pdf » est trop volumineux : 10 Mo au plus par fichier.");
    expect(q.queryByRole("list", { name: "Fichiers joints" })).toBeNull();
  });

  test("a type not accepted is refused before upload, named, with the reason", async () => {
    const { q, pick } = await composer();
    pick(file("logo.svg", "image/svg+xml"), file("setup.exe", "application/x-msdownload"));
    const alert = q.getByRole("alert").textContent;
    expect(alert).toContain("« logo.svg » n'est pas accepté");
    expect(alert).toContain("« setup.exe » n'est pas accepté");
    expect(q.queryByRole("list", { name: "Fichiers joints" })).toBeNull();
  });

  test("past 5 files the others are refused, named", async () => {
    const { q, pick } = await composer();
    pick(...[1, 2, 3, 4, 5, 6].map((i) => file(`page${i}.txt`, "text/plain")));
    expect(within(q.getByRole("list", { name: "Fichiers joints" })).getAllByRole("listitem").length).toBe(5);
    expect(q.getByRole("alert").textContent).toContain("« page6.txt » n'est pas ajouté : 5 fichiers au plus par message.");
  });

  test("the limits come from the page's config when it gives them", async () => {
    const { q, pick } = await composer({ maxMb: 1, perMessage: 2, accept: ["application/pdf"] });
    pick(file("a.pdf", "application/pdf", 2 * MB), file("b.png", "image/png"));
    const alert = q.getByRole("alert").textContent;
    expect(alert).toContain("« a.pdf » est trop volumineux : 1 Mo au plus par fichier.");
    expect(alert).toContain("« b.png » n'est pas accepté");
  });

  test("dragging files over the box shows the drop zone; dropping them adds their chips", async () => {
    const { q, form } = await composer();
    const dataTransfer = { types: ["Files"], files: [file("devis.pdf", "application/pdf")], dropEffect: "none" };
    fireEvent.dragEnter(form, { dataTransfer });
    expect(form.className).toContain("drop-over");
    expect(q.getByText("Déposez vos fichiers ici")).toBeTruthy();
    fireEvent.drop(form, { dataTransfer });
    expect(form.className).not.toContain("drop-over");
    expect(q.getByRole("list", { name: "Fichiers joints" }).textContent).toContain("devis.pdf");
  });

  test("dragging text (not files) leaves the box as it is", async () => {
    const { form } = await composer();
    fireEvent.dragEnter(form, { dataTransfer: { types: ["text/plain"], files: [] } });
    expect(form.className).not.toContain("drop-over");
  });

  test("files dropped beside the box do not make the browser leave the page", async () => {
    await composer();
    const drop = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(drop, "dataTransfer", { value: { types: ["Files"], files: [] } });
    document.body.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
  });

  test("a pasted image is attached; pasted text stays text", async () => {
    const { q } = await composer();
    const box = q.getByRole("textbox", { name: "Votre question" });
    fireEvent.paste(box, { clipboardData: { files: [file("image.png", "image/png")], types: ["Files"], getData: () => "" } });
    expect(q.getByRole("list", { name: "Fichiers joints" }).textContent).toContain("image.png");
    const chips = q.getAllByRole("listitem").length;
    fireEvent.paste(box, { clipboardData: { files: [], types: ["text/plain"], getData: () => "Bonjour" } });
    expect(q.getAllByRole("listitem").length).toBe(chips);
  });

  test("while a file uploads its chip shows a spinner and Send waits", async () => {
    const { q, pick } = await composer();
    fireEvent.change(q.getByRole("textbox", { name: "Votre question" }), { target: { value: "Que dit ce devis ?" } });
    expect((q.getByRole("button", { name: "Lancer l'analyse" }) as HTMLButtonElement).disabled).toBe(false);
    pick(file("devis.pdf", "application/pdf"));
    expect(q.getByRole("status", { name: "Envoi de devis.pdf" })).toBeTruthy();
    expect((q.getByRole("button", { name: "Lancer l'analyse" }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("a sent message's files (issue 33)", () => {
  test("they show as chips: name, type and size, a button to open and one to download, each naming the file", async () => {
    const { MessageItem } = await import("../../web/features/chat/message-item.tsx");
    const message = {
      id: 7,
      content: "Que dit ce bail ?",
      sender: "user" as const,
      message_type: null,
      timestamp: "2026-11-20T10:00:00.000Z",
      result_data: null,
      attachments: [{ id: 41, name: "bail.pdf", kind: "pdf", mime: "application/pdf", size: 250_000 }],
    };
    const view = render(
      <ol>
        <MessageItem message={message} onOpen={() => {}} />
      </ol>,
    );
    const files = within(view.container).getByRole("list", { name: "Pièces jointes du message" });
    expect(files.textContent).toContain("bail.pdf");
    expect(files.textContent).toContain("PDF · 244 Ko");
    expect(within(files).getByRole("button", { name: /^Ouvrir bail\.pdf/ })).toBeTruthy();
    expect(within(files).getByRole("button", { name: "Télécharger bail.pdf" })).toBeTruthy();
  });
});
