import type { Page } from "playwright-core";

/** A file as Playwright's setInputFiles takes it. */
export type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/**
 * A one-page PDF with a text layer, written by hand (objects, then the
 * cross-reference table with each object's byte offset, as the format wants).
 */
export function textPdf(name: string, text: string): FilePayload {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, "\\$&")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) pdf += `${String(o).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { name, mimeType: "application/pdf", buffer: Buffer.from(pdf, "latin1") };
}

/** A real PNG (a drawn page: a title and lines), made by the browser's canvas. */
export async function drawnPng(page: Page, name: string, width = 900, height = 600): Promise<FilePayload> {
  const b64 = await page.evaluate(
    ({ width, height }) => {
      const c = document.createElement("canvas");
      c.width = width;
      c.height = height;
      const g = c.getContext("2d")!;
      g.fillStyle = "#fdf6e3";
      g.fillRect(0, 0, width, height);
      g.fillStyle = "#1e3a8a";
      g.fillRect(0, 0, width, 90);
      g.fillStyle = "#111";
      g.font = "32px sans-serif";
      for (let y = 160; y < height; y += 60) g.fillText("Facture n° 2026-117 — 1 250,00 €", 40, y);
      return c.toDataURL("image/png").split(",")[1]!;
    },
    { width, height },
  );
  return { name, mimeType: "image/png", buffer: Buffer.from(b64, "base64") };
}

/** Any bytes under a name and type: a file that is not what its name says, or one too large. */
export const bytes = (name: string, mimeType: string, size: number, fill = 0x41): FilePayload => ({ name, mimeType, buffer: Buffer.alloc(size, fill) });

/**
 * Drags files over `selector` and drops them, as a desktop browser does: a
 * DataTransfer holding the files, dragenter then (after `between`) drop.
 */
export async function dragAndDrop(page: Page, selector: string, files: FilePayload[], between?: () => Promise<void>) {
  const transfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      return dt;
    },
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, b64: f.buffer.toString("base64") })),
  );
  await page.dispatchEvent(selector, "dragenter", { dataTransfer: transfer });
  await page.dispatchEvent(selector, "dragover", { dataTransfer: transfer });
  await between?.();
  await page.dispatchEvent(selector, "drop", { dataTransfer: transfer });
}

/** Pastes an image into the focused-to-be textarea, as a screenshot pasted from the clipboard. */
export async function pasteFile(page: Page, selector: string, file: FilePayload) {
  await page.evaluate(
    ({ selector, f }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      const target = document.querySelector(selector) as HTMLElement;
      target.focus();
      target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { selector, f: { name: file.name, mimeType: file.mimeType, b64: file.buffer.toString("base64") } },
  );
}
