import type { Deps } from "../deps.ts";
import type { ExtractJob, ExtractResult } from "./extract-job.ts";
import { ReaderPool } from "./reader-pool.ts";

// Module state: one pool per app's attachment settings (a test process runs apps with different limits side by side).
const pools = new WeakMap<object, ReaderPool>();

/**
 * Reads one file for this user in a reader process (reader-pool.ts), so that
 * a hostile file (a PDF of thousands of pages, a DOCX that inflates to
 * gigabytes, a picture of 30,000 × 30,000 pixels) cannot stall or crash the
 * server: refused before decoding when what it declares needs more than
 * ATTACHMENT_EXTRACT_MAX_MB (reading-budget.ts), else read under a limit the
 * kernel enforces and killed past ATTACHMENT_EXTRACT_TIMEOUT_MS.
 */
export function extractFile(deps: Deps, userId: number, job: ExtractJob): Promise<ExtractResult> {
  const settings = deps.config.attachments;
  let pool = pools.get(settings);
  if (!pool) {
    pool = new ReaderPool({ timeoutMs: settings.extractTimeoutMs, budgetBytes: settings.extractMaxBytes, readers: settings.readers });
    pools.set(settings, pool);
  }
  return pool.read(userId, job);
}
