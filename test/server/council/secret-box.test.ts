import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSecretKey, openSecret, SecretKeyError, sealSecret, sealedKey } from "../../../src/council/secret-box.ts";

const SECRET = "une-phrase-secrète-de-plus-de-trente-deux-caractères";

test("a sealed key opens again with the same SECRET_KEY, and holds nothing of the key in clear", () => {
  const key = loadSecretKey({ secretKey: SECRET, dataDir: "/nonexistent" });
  const sealed = sealSecret(key, "sk-live-abcdef123456");
  expect(sealed).not.toContain("abcdef");
  expect(openSecret(key, sealed)).toBe("sk-live-abcdef123456");
  // A fresh nonce each time: the same key never seals to the same text.
  expect(sealSecret(key, "sk-live-abcdef123456")).not.toBe(sealed);
});

test("another SECRET_KEY cannot open it, with a French message", () => {
  const sealed = sealSecret(loadSecretKey({ secretKey: SECRET, dataDir: "/x" }), "sk-1234");
  const other = loadSecretKey({ secretKey: `${SECRET}-autre`, dataDir: "/x" });
  expect(() => openSecret(other, sealed)).toThrow(SecretKeyError);
  expect(() => openSecret(other, sealed)).toThrow(/Clé d'API du conseil illisible/);
});

test("only the last four characters are kept beside the sealed key", () => {
  const { apiKeyLast4 } = sealedKey(loadSecretKey({ secretKey: SECRET, dataDir: "/x" }), "sk-live-abcdef123456");
  expect(apiKeyLast4).toBe("3456");
});

test("on SQLite without SECRET_KEY a key file is created once in DATA_DIR, owner-only", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "unisson-secret-"));
  const first = loadSecretKey({ dataDir });
  const file = join(dataDir, "secret.key");
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const again = loadSecretKey({ dataDir });
  expect(again.bytes.equals(first.bytes)).toBe(true);
  expect(readFileSync(file, "utf8")).not.toBe("");
  expect(openSecret(again, sealSecret(first, "sk-abc"))).toBe("sk-abc");
});

test("PostgreSQL without SECRET_KEY is refused with one French line", () => {
  expect(() => loadSecretKey({ dataDir: "/x", databaseUrl: "postgres://u@127.0.0.1/db" })).toThrow(/^SECRET_KEY manquante : avec PostgreSQL/);
});
