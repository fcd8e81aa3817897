import type { InferRequestType } from "hono/client";
import { api, unwrap } from "../../lib/api.ts";

export type ContactMessage = InferRequestType<typeof api.contact.$post>["json"];

/** POST /contact: the message, trimmed, to the support address. */
export const sendContact = (m: ContactMessage) =>
  unwrap(api.contact.$post({ json: { name: m.name.trim(), email: m.email.trim(), subject: m.subject.trim(), message: m.message.trim() } }));
