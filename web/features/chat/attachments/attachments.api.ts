import { frAttach } from "../../../i18n/fr-attach.ts";
import { storedToken } from "../../../lib/api.ts";
import { saveResponse } from "../../../lib/download.ts";
import type { MessageAttachment } from "./attachment-rules.ts";

const t = frAttach.errors;

/**
 * The attachment routes by plain fetch with the bearer token: the bodies are
 * files (multipart in, bytes out), which the typed JSON client does not carry.
 */
function authed(path: string, init: RequestInit = {}): Promise<Response> {
  const token = storedToken();
  return fetch(path, { ...init, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** The server's French reason (`{ error }` per docs/API.md, or the app's usual `{ detail }`), if it gave one. */
async function reason(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.json()) as { error?: unknown; detail?: unknown };
    const text = body.error ?? body.detail;
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined; // not JSON: a proxy's error page
  }
}

/** An upload the server refused, with the French message to show (it names the file). */
export class UploadError extends Error {}

/** POST /api/attachments (multipart, field `file`): the stored attachment, or UploadError with the reason. */
export async function uploadAttachment(file: File, signal?: AbortSignal): Promise<MessageAttachment> {
  const form = new FormData();
  form.append("file", file, file.name);
  let res: Response;
  try {
    res = await authed("/api/attachments", { method: "POST", body: form, signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new UploadError(t.upload(file.name));
  }
  if (res.ok) return (await res.json()) as MessageAttachment;
  const why = await reason(res);
  if (!why) throw new UploadError(t.upload(file.name));
  throw new UploadError(why.includes(file.name) ? why : t.serverSaid(file.name, why));
}

/** The bytes of an attachment (or its thumbnail) as a blob, for an <img> or a new tab. */
export async function attachmentBlob(id: number, thumbnail = false): Promise<Blob> {
  const res = await authed(`/api/attachments/${id}${thumbnail ? "/thumbnail" : ""}`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.blob();
}

/** Saves the file (GET /api/attachments/:id?download=1) under its own name. */
export async function downloadAttachment(a: MessageAttachment): Promise<void> {
  const res = await authed(`/api/attachments/${a.id}?download=1`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  await saveResponse(res, a.name);
}
