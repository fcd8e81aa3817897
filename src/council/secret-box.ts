import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { frCouncil } from "../i18n/fr-council.ts";
import { RefusedError } from "../lib/errors.ts";

/**
 * The council members' API keys at rest: AES-256-GCM (node:crypto), a fresh
 * 12-byte nonce per key, the 16-byte tag checked on opening. The stored text
 * is "v1:" + base64(nonce | tag | ciphertext): never the key in clear, so the
 * database file, its backups and `unisson db copy` hold no usable key
 * (docs/SECURITY.md, "Council keys").
 */
export type SecretKey = { readonly bytes: Buffer };

const VERSION = "v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The key file SQLite installations use when SECRET_KEY is unset. */
export const KEY_FILE = "secret.key";

/** A RefusedError: the CLI and the server print its one French line and exit 1. */
export class SecretKeyError extends RefusedError {}

/**
 * The key: SECRET_KEY hashed to 32 bytes (SHA-256; the variable asks for 32
 * characters or more), else on SQLite DATA_DIR/secret.key, 32 random bytes
 * created once with mode 0600. PostgreSQL serves several machines that must
 * share the key: there SECRET_KEY is required (SecretKeyError, French).
 */
export function loadSecretKey(config: { secretKey?: string; databaseUrl?: string; dataDir: string }): SecretKey {
  if (config.secretKey) return { bytes: createHash("sha256").update(config.secretKey, "utf8").digest() };
  if (config.databaseUrl) throw new SecretKeyError(frCouncil.secretKeyRequired);
  const file = join(config.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      // "wx": two processes starting together never overwrite each other's key.
      writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  // A key file copied around with looser rights is put back to owner-only.
  chmodSync(file, 0o600);
  const bytes = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (bytes.length !== 32) throw new SecretKeyError(frCouncil.keyFileInvalid(file));
  return { bytes };
}

export function sealSecret(key: SecretKey, plain: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64");
}

/** The key in clear; throws SecretKeyError (French) when the text was sealed with another key or altered. */
export function openSecret(key: SecretKey, sealed: string): string {
  if (!sealed.startsWith(VERSION)) throw new SecretKeyError(frCouncil.sealedUnreadable);
  const raw = Buffer.from(sealed.slice(VERSION.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key.bytes, raw.subarray(0, NONCE_BYTES));
  decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretKeyError(frCouncil.sealedUnreadable);
  }
}

/** A member's stored key: none, opened, or sealed with a key this process does not have (SECRET_KEY changed, secret.key lost). */
export type StoredKey = { state: "none" } | { state: "open"; key: string } | { state: "unreadable" };

/** Opens a stored key; `load` gives the sealing key (its failure, such as a damaged secret.key, also reads as unreadable). */
export function openStoredKey(load: () => SecretKey, sealed: string | null): StoredKey {
  if (!sealed) return { state: "none" };
  try {
    return { state: "open", key: openSecret(load(), sealed) };
  } catch (e) {
    if (e instanceof SecretKeyError) return { state: "unreadable" };
    throw e;
  }
}

/** What is ever shown of a key: its last 4 characters. */
export function lastFour(plain: string): string {
  return plain.slice(-4);
}

/** The two columns a member's key is stored in. */
export function sealedKey(key: SecretKey, plain: string): { apiKeyEnc: string; apiKeyLast4: string } {
  return { apiKeyEnc: sealSecret(key, plain), apiKeyLast4: lastFour(plain) };
}
