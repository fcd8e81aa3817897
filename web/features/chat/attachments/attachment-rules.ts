import { frAttach } from "../../../i18n/fr-attach.ts";

const t = frAttach;

/** What the server takes (docs/API.md, attachments): its config when it sends one, else the defaults. */
export type AttachmentLimits = { maxMb: number; perMessage: number; accept: readonly string[] };

export type AttachmentKind = keyof typeof t.kinds;

/** An attachment as the server describes it (POST /api/attachments, a message's `attachments`). */
export type MessageAttachment = { id: number; name: string; kind: string; mime: string; size: number };

/** The types by extension: a browser often gives no MIME type for .md or .csv, and the server reads the bytes anyway. */
const KINDS: Record<string, { kind: AttachmentKind; mime: string }> = {
  pdf: { kind: "pdf", mime: "application/pdf" },
  docx: { kind: "docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  txt: { kind: "text", mime: "text/plain" },
  md: { kind: "markdown", mime: "text/markdown" },
  markdown: { kind: "markdown", mime: "text/markdown" },
  csv: { kind: "csv", mime: "text/csv" },
  png: { kind: "png", mime: "image/png" },
  jpg: { kind: "jpeg", mime: "image/jpeg" },
  jpeg: { kind: "jpeg", mime: "image/jpeg" },
  webp: { kind: "webp", mime: "image/webp" },
  gif: { kind: "gif", mime: "image/gif" },
};

export const DEFAULT_LIMITS: AttachmentLimits = {
  maxMb: 10,
  perMessage: 5,
  accept: [...new Set(Object.values(KINDS).map((k) => k.mime))],
};

const extension = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";

/**
 * The picker's `accept`: the MIME types and their extensions (a phone's
 * picker offers the camera when image types are among them).
 */
export function acceptAttribute(limits: AttachmentLimits): string {
  const exts = Object.entries(KINDS)
    .filter(([, k]) => limits.accept.includes(k.mime))
    .map(([ext]) => `.${ext}`);
  return [...limits.accept, ...exts].join(",");
}

/** The kind shown on a chip: from the MIME type the browser gives, else from the name's extension. */
export function kindOf(file: { name: string; type: string }): AttachmentKind {
  const byMime = Object.values(KINDS).find((k) => k.mime === file.type);
  return byMime?.kind ?? KINDS[extension(file.name)]?.kind ?? "other";
}

export const kindLabel = (kind: string) => t.kinds[kind as AttachmentKind] ?? t.kinds.other;

export const isImageKind = (kind: string) => kind === "png" || kind === "jpeg" || kind === "webp" || kind === "gif";

/** « 1,2 Mo », « 850 Ko », « 12 o »: French units, a decimal comma. */
export function formatSize(bytes: number): string {
  const one = (n: number) => n.toLocaleString("fr-FR", { maximumFractionDigits: n < 10 ? 1 : 0 });
  if (bytes < 1024) return `${bytes} ${t.units.b}`;
  if (bytes < 1024 * 1024) return `${one(bytes / 1024)} ${t.units.kb}`;
  return `${one(bytes / (1024 * 1024))} ${t.units.mb}`;
}

/** Whether the server would take this type: its MIME type, or its extension when the browser gives none or a vague one. */
function accepted(file: File, limits: AttachmentLimits): boolean {
  if (limits.accept.includes(file.type)) return true;
  const byName = KINDS[extension(file.name)];
  const vague = file.type === "" || file.type === "application/octet-stream" || file.type.startsWith("text/");
  return !!byName && vague && limits.accept.includes(byName.mime);
}

/**
 * The checks made before any upload: type, size, and how many a message
 * holds (`already` files are there). Returns the files to upload and a
 * French message for each one refused, naming it and saying why.
 */
export function checkFiles(files: File[], already: number, limits: AttachmentLimits): { take: File[]; errors: string[] } {
  const take: File[] = [];
  const errors: string[] = [];
  for (const file of files) {
    if (!accepted(file, limits)) errors.push(t.errors.type(file.name));
    else if (file.size > limits.maxMb * 1024 * 1024) errors.push(t.errors.tooLarge(file.name, limits.maxMb));
    else if (already + take.length >= limits.perMessage) errors.push(t.errors.tooMany(file.name, limits.perMessage));
    else take.push(file);
  }
  return { take, errors };
}
