import { existsSync } from "node:fs";
import { join } from "node:path";
import { KEY_FILE, loadSecretKey, openSecret, type SecretKey, SecretKeyError, sealSecret } from "../../council/secret-box.ts";
import { frCli } from "../../i18n/fr-cli.ts";
import { RefusedError } from "../../lib/errors.ts";
import type { Row, Side } from "./sides.ts";

const t = frCli.db.keys;

/** The shortest TARGET_SECRET_KEY accepted: SECRET_KEY's own rule (src/config.ts). */
const MIN_SECRET_CHARS = 32;

/** How a council key read from the source is written to the target: sealed again, or as it is when both use the same key. */
export type Reseal = (row: Row) => Row;

/**
 * The keys a copy opens the council's stored API keys with and seals them
 * again with (issue 46). The source's: SECRET_KEY, else on a SQLite source
 * its DATA_DIR/secret.key (read, never created here). The target's:
 * TARGET_SECRET_KEY, else SECRET_KEY (the same key on both sides). A SQLite
 * installation on its default secret.key moving to PostgreSQL thus gives
 * TARGET_SECRET_KEY, the SECRET_KEY its PostgreSQL servers will have.
 */
export function copyKeys(
  env: { secretKey?: string; targetSecretKey?: string; dataDir: string },
  source: Side,
): { from: SecretKey | null; to: SecretKey | null } {
  const target = env.targetSecretKey?.trim() || undefined;
  if (target !== undefined && target.length < MIN_SECRET_CHARS) throw new RefusedError(t.targetTooShort);
  const keyFile = join(env.dataDir, KEY_FILE);
  const from = env.secretKey
    ? loadSecretKey({ secretKey: env.secretKey, dataDir: env.dataDir })
    : source.dialect === "sqlite" && existsSync(keyFile)
      ? loadSecretKey({ dataDir: env.dataDir })
      : null;
  const targetSecret = target ?? env.secretKey;
  return { from, to: targetSecret ? loadSecretKey({ secretKey: targetSecret, dataDir: env.dataDir }) : null };
}

/**
 * Before anything is written: every stored key of the source opens with
 * `from`, and a target key is there to seal it again; else a French refusal
 * naming what to give (a copy never ends with keys nobody can open). Returns
 * how the copy writes each member's row, and how many keys it sealed again.
 */
export async function councilKeysMove(source: Side, keys: { from: SecretKey | null; to: SecretKey | null }): Promise<{ reseal: Reseal; resealed: number }> {
  // The source's schema first: its council table is read before copyDatabase checks it.
  await source.requireCurrent();
  const rows: Row[] = await source.db.select().from(source.tables.councilMembers);
  const sealed = rows.filter((r) => typeof r.apiKeyEnc === "string" && r.apiKeyEnc !== "");
  if (sealed.length === 0) return { reseal: (row) => row, resealed: 0 };
  const { from, to } = keys;
  if (!from) throw new RefusedError(t.noSourceKey(sealed.length));
  for (const row of sealed) {
    try {
      openSecret(from, row.apiKeyEnc as string);
    } catch (e) {
      if (e instanceof SecretKeyError) throw new RefusedError(t.unreadable(String(row.name)));
      throw e;
    }
  }
  if (!to) throw new RefusedError(t.noTargetKey(sealed.length));
  if (from.bytes.equals(to.bytes)) return { reseal: (row) => row, resealed: 0 };
  const reseal: Reseal = (row) =>
    typeof row.apiKeyEnc === "string" && row.apiKeyEnc !== "" ? { ...row, apiKeyEnc: sealSecret(to, openSecret(from, row.apiKeyEnc)) } : row;
  return { reseal, resealed: sealed.length };
}
