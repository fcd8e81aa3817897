import { afterAll, describe, expect, test } from "bun:test";
import { startBinary, tempDir } from "../helpers/binary.ts";
import { png, textPdf, uploadForm, webp } from "../helpers/attachment-files.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());

describe("the compiled executable reads attachments", () => {
  test("a PDF's text (pdf.js in the extraction worker), a picture resized by jimp, a WebP decoded by its embedded WebAssembly", async () => {
    const { proc, url } = await startBinary({ ADMIN_EMAIL: "root@example.fr", ADMIN_PASSWORD: "Motdepasse-binaire-1", TWO_FACTOR: "off" }, dir.path);
    try {
      const login = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "root@example.fr", password: "Motdepasse-binaire-1" }),
      });
      const { token } = (await login.json()) as { token: string };
      const send = async (bytes: Uint8Array, name: string) => {
        const res = await fetch(`${url}/api/attachments`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: uploadForm(bytes, name) });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const pdf = await send(await textPdf(4), "bail.pdf");
      expect(pdf).toEqual({ status: 201, body: expect.objectContaining({ kind: "pdf", pages: 4 }) });
      const picture = await send(await png(2000, 500), "capture.png");
      expect(picture).toEqual({ status: 201, body: expect.objectContaining({ kind: "png", width: 2000, height: 500 }) });
      const thumb = await fetch(`${url}/api/attachments/${picture.body.id}/thumbnail`, { headers: { authorization: `Bearer ${token}` } });
      expect(thumb.headers.get("content-type")).toBe("image/png");
      const photo = await send(await webp(2000, 1000), "photo.webp");
      expect(photo).toEqual({ status: 201, body: expect.objectContaining({ kind: "webp", width: 2000, height: 1000 }) });
      const small = await fetch(`${url}/api/attachments/${photo.body.id}/thumbnail`, { headers: { authorization: `Bearer ${token}` } });
      expect(small.headers.get("content-type")).toBe("image/jpeg");
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
    }
  });
});
