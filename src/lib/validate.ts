import { zValidator } from "@hono/zod-validator";
import { type ZodType, z } from "zod";
import { fr } from "zod/locales";
import { AppError } from "./errors.ts";

// Messages zod writes itself (wrong type, missing field) are in French too.
// Module state: zod's locale is one per process, and the whole process speaks French.
z.config(fr());

type Target = "json" | "query" | "param";

/**
 * zValidator with the house error: the first issue becomes a 400 { detail }
 * in French. Schemas give the spec's own texts field by field; zod's French
 * locale covers the rest (wrong types, unknown shapes).
 */
export function validate<T extends ZodType, Tg extends Target>(target: Tg, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new AppError("VALIDATION", issue?.message ?? undefined);
    }
  });
}

/** A required, trimmed string with the given French message when blank or missing. */
export function requiredText(message: string, max = 200, tooLong = `Ce champ est trop long (${max} caractères au plus).`) {
  return z.string({ error: message }).trim().min(1, message).max(max, tooLong);
}
