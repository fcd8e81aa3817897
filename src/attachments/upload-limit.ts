import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { type RateLimitStore, rateLimited } from "../lib/rate-limit.ts";

/**
 * Uploads per user: a page sends at most ATTACHMENTS_PER_MESSAGE a question,
 * so 60 in 10 minutes is generous for a person and stops a script from
 * filling the database. One counter for every door (the page's upload, a
 * /v1 request's file parts), taken before the file is read: a refused file
 * costs its try too.
 */
const UPLOAD_LIMIT = { windowMs: 10 * MINUTE, limit: 60 };

/** Counts `files` uploads of this user; past the limit, a 429 that names it (the same words on the page and on /v1). */
export async function countUploads(store: RateLimitStore, userId: number, files = 1): Promise<void> {
  for (let i = 0; i < files; i++) {
    const hit = await store.hit(`key:attachments.upload:${userId}`, UPLOAD_LIMIT.windowMs);
    if (hit.count > UPLOAD_LIMIT.limit) {
      const retryAfter = rateLimited(store, hit.resetAt).headers;
      throw new AppError("ATTACHMENTS_RATE_LIMITED", undefined, retryAfter);
    }
  }
}
