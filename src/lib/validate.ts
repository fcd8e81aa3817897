import { zValidator } from "@hono/zod-validator";
import type { Context } from "hono";
import { validator as honoValidator } from "hono/validator";
import { type ZodType, z } from "zod";
import { fr } from "zod/locales";
import { AppError } from "./errors.ts";

// Messages zod writes itself (wrong type, missing field) are in French too.
// Module state: zod's locale is one per process, and the whole process speaks French.
z.config(fr());

type Target = "json" | "query" | "param";

/** Refusal of a control character the product never stores (the same words as a name's forbidden characters). */
export const FORBIDDEN_CHARS_MESSAGE = "Ce champ contient des caractères non autorisés.";

/**
 * zValidator with the house error: the first issue becomes a 400 { detail }
 * in French. Schemas give the spec's own texts field by field; zod's French
 * locale covers the rest (wrong types, unknown shapes). Before any schema, a
 * NUL anywhere in the input (a value or a key, however deep) is refused:
 * PostgreSQL's text cannot hold one (a 500 there), and no field means
 * anything with it.
 */
export function validate<T extends ZodType, Tg extends Target>(target: Tg, schema: T) {
  const validator = zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new AppError("VALIDATION", issue?.message ?? undefined);
    }
  });
  // Same checks and the same validated data (c.req.valid), on one parse of the body.
  if (target === "json") return jsonValidator(schema) as unknown as typeof validator;
  const guarded: typeof validator = async (c, next) => {
    if (holdsNul(rawInput(c, target as Exclude<Target, "json">))) throw new AppError("VALIDATION", FORBIDDEN_CHARS_MESSAGE);
    return await validator(c, next);
  };
  return guarded;
}

/**
 * A JSON body: Hono keeps the body's text, not its parse (every c.req.json()
 * parses again), so the NUL check and the schema read the one value Hono's
 * validator parsed (a malformed body is its 400).
 */
function jsonValidator(schema: ZodType) {
  return honoValidator("json", async (value) => {
    if (holdsNul(value)) throw new AppError("VALIDATION", FORBIDDEN_CHARS_MESSAGE);
    const result = await schema.safeParseAsync(value);
    if (!result.success) throw new AppError("VALIDATION", result.error.issues[0]?.message ?? undefined);
    return result.data;
  });
}

/** What zValidator will read (a query's or a path's parameters), read first. */
function rawInput(c: Context, target: Exclude<Target, "json">): unknown {
  return target === "query" ? c.req.queries() : c.req.param();
}

/** Whether a NUL is in any string or key of a parsed JSON value; a loop, not recursion, so no nesting depth overflows it. */
function holdsNul(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.includes("\u0000")) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes("\u0000")) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/** A required, trimmed string with the given French message when blank or missing. */
export function requiredText(message: string, max = 200, tooLong = `Ce champ est trop long (${max} caractères au plus).`) {
  return z.string({ error: message }).trim().min(1, message).max(max, tooLong);
}
