import { Jimp } from "jimp";
import JSZip from "jszip";
import { PDFDocument, PDFHexString, PDFName, StandardFonts } from "pdf-lib";

/**
 * The files of the attachment tests, made by the tests themselves (issue 33):
 * PDFs with pdf-lib, a DOCX zipped by hand with jszip (the three parts Word
 * needs), pictures with jimp (a WebP with @jsquash/webp's encoder).
 */

/** A PDF whose page i says "Page i" and `lines(i)`. */
export async function textPdf(pages: number, lines: (page: number) => string[] = (i) => [`Page ${i} : le loyer mensuel est de 850 euros.`]) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    lines(i).forEach((line, n) => {
      page.drawText(line, { x: 50, y: 780 - n * 18, size: 12, font });
    });
  }
  return new Uint8Array(await doc.save({ useObjectStreams: false }));
}

/** A scan: one page holding only a picture, no text layer. */
export async function scannedPdf() {
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(await png_(400, 300));
  const page = doc.addPage([595, 842]);
  page.drawImage(png, { x: 50, y: 400, width: 400, height: 300 });
  return new Uint8Array(await doc.save({ useObjectStreams: false }));
}

/** A PDF with an empty page: neither text nor picture. */
export async function blankPdf() {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  return new Uint8Array(await doc.save({ useObjectStreams: false }));
}

/**
 * A PDF under the standard security handler whose user password is not empty:
 * its /U entry matches no key the empty password gives, so a reader asks for
 * the password (pdf.js: PasswordException).
 */
export async function passwordPdf() {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  const bytes = (n: number) => PDFHexString.of(Buffer.from(crypto.getRandomValues(new Uint8Array(n))).toString("hex"));
  const encrypt = doc.context.obj({ Filter: PDFName.of("Standard"), V: 1, R: 2, O: bytes(32), U: bytes(32), P: -44 });
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  doc.context.trailerInfo.ID = doc.context.obj([bytes(16), bytes(16)]);
  return new Uint8Array(await doc.save({ useObjectStreams: false }));
}

/** A DOCX holding these paragraphs. */
export async function docx(paragraphs: string[]) {
  return await docxOfBody(paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join(""));
}

/**
 * The hostile DOCX of issue 44: `xmlMb` megabytes of one-letter paragraphs
 * (200 MB zip to about 600 KB), what makes mammoth's memory explode.
 */
export async function tinyParagraphsDocx(xmlMb: number) {
  const paragraph = "<w:p><w:r><w:t>a</w:t></w:r></w:p>";
  return await docxOfBody(paragraph.repeat(Math.floor((xmlMb * 1024 * 1024) / paragraph.length)));
}

/** The three parts Word needs, around this document body. */
async function docxOfBody(body: string) {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    "_rels/.rels",
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );

  return new Uint8Array(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
}

function picture(width: number, height: number) {
  const image = new Jimp({ width, height, color: 0x3366ccff });
  // A diagonal so a resize has something to keep.
  for (let i = 0; i < Math.min(width, height); i++) image.setPixelColor(0xffcc00ff, i, i);
  return image;
}

async function png_(width: number, height: number) {
  return new Uint8Array(await picture(width, height).getBuffer("image/png"));
}

export const png = png_;

export async function jpeg(width: number, height: number) {
  return new Uint8Array(await picture(width, height).getBuffer("image/jpeg", { quality: 80 }));
}

/** A lossy WebP, encoded by libwebp in WebAssembly (@jsquash/webp's encoder; the product only decodes). */
export async function webp(width: number, height: number, { transparent = false } = {}) {
  const { default: encode } = await import("@jsquash/webp/encode");
  const { bitmap } = picture(width, height);
  // Transparent: the top left corner's pixels fully clear.
  if (transparent) for (let p = 0; p < Math.min(100, width); p++) bitmap.data[p * 4 + 3] = 0;
  const pixels = { data: new Uint8ClampedArray(bitmap.data), width, height, colorSpace: "srgb" } as ImageData;
  return new Uint8Array(await encode(pixels, { quality: 80, ...(transparent ? { exact: 1 } : {}) }));
}

export async function gif(width: number, height: number) {
  return new Uint8Array(await picture(width, height).getBuffer("image/gif"));
}

/** A file of `mb` megabytes (text, so only its size can refuse it). */
export function bigFile(mb: number) {
  return new Uint8Array(mb * 1024 * 1024).fill(0x61);
}

/** A multipart body with one `file` field, as a browser's FormData sends it. */
export function uploadForm(bytes: Uint8Array, name: string, type = "application/octet-stream") {
  const form = new FormData();
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  return form;
}

/**
 * A decompression bomb: a PNG of `side` × `side` black pixels, a few hundred
 * kilobytes compressed, side² × 4 bytes once decoded. Written chunk by chunk
 * (jimp would have to hold the pixels to make it).
 */
export function pixelBomb(side: number) {
  const { deflateSync } = require("node:zlib") as typeof import("node:zlib");
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(Bun.hash.crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter set, no interlace
  // Each row: filter byte 0 and side × 3 zero bytes; a zero-filled buffer costs no memory until written.
  const pixels = deflateSync(Buffer.alloc(side * (side * 3 + 1)), { level: 9 });
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", new Uint8Array(0))]));
}

/** A lossless WebP that is only its header: 46 bytes declaring `side` × `side` pixels (the VP8L bitstream's first 4 bytes after its signature). */
export function webpHeaderOnly(side: number): Uint8Array {
  const vp8l = Buffer.alloc(26);
  vp8l[0] = 0x2f;
  vp8l.writeUInt32LE(((side - 1) | ((side - 1) << 14)) >>> 0, 1);
  const chunk = Buffer.concat([Buffer.from("VP8L"), Buffer.from(new Uint32Array([vp8l.length]).buffer), vp8l]);
  const body = Buffer.concat([Buffer.from("WEBP"), chunk]);
  return new Uint8Array(Buffer.concat([Buffer.from("RIFF"), Buffer.from(new Uint32Array([body.length]).buffer), body]));
}

/** A one-page PDF whose content stream inflates to `mb` megabytes of spaces (pdf.js finds it without an xref). */
export function inflatePdf(mb: number): Uint8Array {
  const stream = (require("node:zlib") as typeof import("node:zlib")).deflateSync(Buffer.alloc(mb * 1024 * 1024, 0x20), { level: 9 });
  const head = Buffer.from(
    "%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj\n" +
      "3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R>> endobj\n" +
      `4 0 obj <</Length ${stream.length}/Filter/FlateDecode>> stream\n`,
  );
  return new Uint8Array(Buffer.concat([head, stream, Buffer.from("\nendstream endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n")]));
}
