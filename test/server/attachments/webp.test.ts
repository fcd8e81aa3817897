import { describe, expect, test } from "bun:test";
import { Jimp } from "jimp";
import { webp } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { askWith, storedRow, upload } from "./attachments.helpers.ts";

/** WebP pictures are decoded (libwebp in WebAssembly) and resized like the others (issue 33). */
const fakes = useFakeProviders();
const kindOf = (bytes: Uint8Array) => (bytes[0] === 0x89 ? "png" : bytes[0] === 0xff && bytes[1] === 0xd8 ? "jpeg" : "other");

describe("a WebP picture", () => {
  test("a large WebP is kept as sent, resized to 1568 px on its long side for the models (JPEG), with a 256 px thumbnail", async () => {
    const t = await chatApp(fakes());
    const bytes = await webp(3000, 1500);
    const res = await upload(t, bytes, "photo.webp");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: "webp", mime: "image/webp", width: 3000, height: 1500 });
    const row = (await storedRow(t, res.body.id))!;
    expect(new Uint8Array(row.data)).toEqual(bytes);
    expect(kindOf(row.modelImage!)).toBe("jpeg");
    const model = await Jimp.read(Buffer.from(row.modelImage!));
    expect([model.width, model.height]).toEqual([1568, 784]);
    const thumb = await t.app.request(`/api/attachments/${res.body.id}/thumbnail`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");
    const small = await Jimp.read(Buffer.from(await thumb.arrayBuffer()));
    expect([small.width, small.height]).toEqual([256, 128]);
  });

  test("a WebP with transparent pixels becomes a PNG, its transparency kept", async () => {
    const t = await chatApp(fakes());
    const res = await upload(t, await webp(400, 300, { transparent: true }), "logo.webp");
    expect(res.status).toBe(201);
    const row = (await storedRow(t, res.body.id))!;
    expect(kindOf(row.modelImage!)).toBe("png");
    const model = await Jimp.read(Buffer.from(row.modelImage!));
    expect(model.bitmap.data[3]).toBe(0);
  });

  test("the models that see get the resized picture as a JPEG, in their SDK's format", async () => {
    const t = await chatApp(fakes());
    const id = (await upload(t, await webp(2000, 1000), "capture.webp")).body.id;
    const { answer } = await askWith(t, [id], "Que montre cette image ?");
    expect(answer!.status).toBe(200);
    const raw = (model: string) =>
      (
        fakes()
          .control.callsOf("answer")
          .find((c) => c.model === model)!.raw as any[]
      ).at(-1);
    expect(raw("gpt4").content[1].image_url.url).toStartWith("data:image/jpeg;base64,");
    expect(raw("claudeOpus").content[0].source.media_type).toBe("image/jpeg");
    const gemini = raw("geminiPro").parts[1].inlineData;
    expect(gemini.mimeType).toBe("image/jpeg");
    const sent = await Jimp.read(Buffer.from(gemini.data, "base64"));
    expect([sent.width, sent.height]).toEqual([1568, 784]);
  });
});
