import { z } from "zod";
import { emailField } from "../admin/admin.schemas.ts";
import { requiredText } from "../lib/validate.ts";

/** Bounds that fit any real message and keep one request from filling the table. */
const CONTACT_LIMITS = { name: 100, subject: 200, message: 5000 } as const;

export const contactSchema = z.object({
  name: requiredText("Le nom est requis", CONTACT_LIMITS.name, `Le nom est trop long (${CONTACT_LIMITS.name} caractères au plus)`),
  email: emailField,
  subject: requiredText("Le sujet est requis", CONTACT_LIMITS.subject, `Le sujet est trop long (${CONTACT_LIMITS.subject} caractères au plus)`),
  message: requiredText("Le message est requis", CONTACT_LIMITS.message, `Le message est trop long (${CONTACT_LIMITS.message} caractères au plus)`),
});
export type ContactInput = z.infer<typeof contactSchema>;
