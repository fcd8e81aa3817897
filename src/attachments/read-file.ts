/**
 * What the reader process does with one file (reader-main.ts; the server
 * starts one per file, reader-pool.ts): text from a PDF (unpdf, i.e. pdf.js)
 * or a DOCX (mammoth), images decoded and resized (jimp, pure JavaScript).
 * Nothing here touches the database or the network.
 */
import { extractImages, getDocumentProxy, getResolvedPDFJS } from "unpdf";
import type { ExtractJob, ExtractResult } from "./extract-job.ts";
import { prepareImage, prepareRawImage } from "./images.ts";
import { MEMORY_REFUSAL, overBudget } from "./reading-budget.ts";

/** Reads the file; a failure is a result (with the reason the user is told), never a throw. */
export async function readFile(job: ExtractJob, budgetBytes: number): Promise<ExtractResult> {
  try {
    const over = await overBudget(job.kind, job.bytes, budgetBytes);
    if (over) return { ok: false, reason: over };
    return await extract(job);
  } catch (e) {
    return { ok: false, reason: reasonOf(e), detail: String((e as Error)?.stack ?? e).slice(0, 2000) };
  }
}

async function extract(job: ExtractJob): Promise<ExtractResult> {
  if (job.kind === "pdf") return await extractPdf(job.bytes, job.maxPages);
  if (job.kind === "docx") {
    const mammoth = await import("mammoth");
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(job.bytes) });
    const text = value.replace(/\n{3,}/g, "\n\n").trim();
    if (!text) return { ok: false, reason: "ce document Word ne contient aucun texte" };
    return { ok: true, pages: null, text, pageCount: null, image: null };
  }
  return { ok: true, pages: null, text: null, pageCount: null, image: await prepareImage(job.kind, job.bytes) };
}

/** Pages looked at for a picture when a PDF has no text at all (a scan). */
const SCAN_PAGES = 3;

async function extractPdf(bytes: Uint8Array, maxPages: number): Promise<ExtractResult> {
  const pdf = await getDocumentProxy(bytes);
  try {
    const pageCount = pdf.numPages;
    const pages: string[] = [];
    for (let i = 1; i <= Math.min(pageCount, maxPages); i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
          .join("")
          .trim(),
      );
      page.cleanup();
    }
    if (pages.some((p) => p.length > 0)) return { ok: true, pages, text: null, pageCount, image: null };
    // No text layer: a scan is still read by the models that see images (its first picture); a PDF with neither is refused.
    const { OPS } = await getResolvedPDFJS();
    const paints = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageXObjectRepeat]);
    for (let i = 1; i <= Math.min(pageCount, SCAN_PAGES); i++) {
      const ops = await (await pdf.getPage(i)).getOperatorList();
      if (!ops.fnArray.some((fn) => paints.has(fn))) continue;
      const [picture] = await extractImages(pdf, i);
      const image = picture ? await prepareRawImage(picture.data, picture.width, picture.height, picture.channels) : null;
      return { ok: true, pages, text: null, pageCount, image };
    }
    return { ok: false, reason: "ce PDF ne contient ni texte ni image" };
  } finally {
    await pdf.destroy();
  }
}

/** pdf.js names its errors: a password, a file that is not a PDF; past the process's memory limit, allocations fail. */
function reasonOf(e: unknown): string {
  const name = (e as { name?: string } | null)?.name ?? "";
  if (e instanceof RangeError && /memory|allocat/i.test(e.message)) return MEMORY_REFUSAL;
  if (name === "PasswordException") return "ce PDF est protégé par un mot de passe";
  if (name === "InvalidPDFException" || name === "FormatError") return "ce PDF est endommagé ou n'en est pas un";
  if (/zip|central directory|end of data/i.test(String((e as Error)?.message ?? ""))) return "ce document Word est endommagé";
  return "ce fichier n'a pas pu être lu";
}
