import type { Page } from "playwright-core";

/** A file as Playwright's setInputFiles takes it. */
export type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/** Bytes made by test/helpers/attachment-files.ts as a file for the page. */
export const payload = (name: string, mimeType: string, bytes: Uint8Array): FilePayload => ({ name, mimeType, buffer: Buffer.from(bytes) });

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
