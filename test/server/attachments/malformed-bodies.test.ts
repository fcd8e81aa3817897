import { describe, expect, test } from "bun:test";
import { png } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { uploaded } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

const BOUNDARY = "----unisson-test-boundary";

/** A multipart body written by hand, so that it can be wrong in the ways a browser never is. */
function rawUpload(t: { app: { request: (p: string, i: RequestInit) => Response | Promise<Response> }; token: string }, body: string, contentType: string) {
  return t.app.request("/api/attachments", { method: "POST", headers: { authorization: `Bearer ${t.token}`, "content-type": contentType }, body });
}

function part(filenameHeader: string, content: string) {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"${filenameHeader}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`;
}

async function expect400(res: Response, detail: string) {
  expect(res.status).toBe(400);
  expect(((await res.json()) as { detail: string }).detail).toBe(detail);
}

const UNREADABLE = "Formulaire d'envoi illisible (limite manquante ou corps tronqué) : envoyez le fichier à nouveau.";

describe("a malformed multipart body is a French 4xx, never a 500", () => {
  test("a file part whose file name is empty", async () => {
    const t = await chatApp(fakes());
    await expect400(
      await rawUpload(t, part('; filename=""', "bonjour"), `multipart/form-data; boundary=${BOUNDARY}`),
      "Le fichier reçu n'a pas de nom : choisissez un fichier qui en a un.",
    );
  });

  test("a multipart content type without its boundary", async () => {
    const t = await chatApp(fakes());
    await expect400(await rawUpload(t, part('; filename="a.txt"', "bonjour"), "multipart/form-data"), UNREADABLE);
  });

  test("a body cut before its closing boundary", async () => {
    const t = await chatApp(fakes());
    const whole = part('; filename="a.txt"', "bonjour tout le monde");
    await expect400(await rawUpload(t, whole.slice(0, whole.indexOf("tout")), `multipart/form-data; boundary=${BOUNDARY}`), UNREADABLE);
  });
});

describe("thumbnails are never kept by a shared browser's cache", () => {
  test("GET /api/attachments/:id/thumbnail answers Cache-Control: private, no-store", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await png(600, 400), "photo.png");
    const res = await t.app.request(`/api/attachments/${id}/thumbnail`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});
