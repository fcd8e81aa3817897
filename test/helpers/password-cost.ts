import { ARGON2_MEMORY_MIB_MIN } from "../../src/auth/password-hash.ts";

/**
 * Test servers, CLI commands and fixtures hash passwords at OWASP's floor
 * (19 MiB) instead of the default 64 MiB: still argon2id at a cost a real
 * server may choose, about 22 ms of CPU a hash or check against 90 ms. The
 * suite makes hundreds; at the default they were a tenth of its CPU time
 * (docs/TESTING.md). `password-hash.test.ts` checks the default itself.
 */
export const TEST_PASSWORD_HASH_ENV = { ARGON2_MEMORY_MIB: String(ARGON2_MEMORY_MIB_MIN) };
export const TEST_PASSWORD_HASH_COST = { memoryMib: ARGON2_MEMORY_MIB_MIN };
