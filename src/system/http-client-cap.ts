import { dlopen, FFIType, ptr } from "bun:ffi";
import { readFileSync } from "node:fs";

/**
 * Bun's fetch runs at most 256 requests at once and queues the rest
 * (`BUN_CONFIG_MAX_HTTP_REQUESTS`, read once when the process starts: setting
 * it from JavaScript later changes nothing). A live answer holds one
 * streaming request per council member, then the synthesis; past 256, the
 * queued calls send nothing, the stall limit abandons them as if their model
 * were silent, and three such failures open a model's breaker: « maintenance »
 * for every user (issue 46). 1,000 answers (LIVE_STREAMS_MAX) of six members
 * and a synthesis are 7,000 requests: 8,192 holds them, far under the
 * file-descriptor limit Bun raises itself at start.
 */
export const HTTP_CLIENT_CAP = 8192;
const VARIABLE = "BUN_CONFIG_MAX_HTTP_REQUESTS";
/** The environment of a process that runs the server's code itself (the test processes, whose apps run in-process). */
export const HTTP_CLIENT_ENV = { [VARIABLE]: String(HTTP_CLIENT_CAP) };

/**
 * When the variable is not set (an operator's own value is kept, whatever it
 * is), the server replaces its process with itself with the variable set:
 * execve(2), so the pid, the open terminal, systemd's tracking and the
 * signals stay the same, and nothing has started yet (this runs before any
 * other module of the executable). Linux only, through libc; anywhere it
 * cannot, the server starts as it is and says so.
 */
export function ensureHttpClientCap(argv: readonly string[]): void {
  const command = argv[2];
  if (command !== undefined && command !== "serve") return;
  if (process.env[VARIABLE]) return;
  try {
    execSelf({ ...process.env, ...HTTP_CLIENT_ENV });
  } catch (error) {
    console.warn(
      `Unisson n'a pas pu relever la limite de requêtes sortantes simultanées (${(error as Error).message}) : définissez ${VARIABLE}=${HTTP_CLIENT_CAP} dans l'environnement du serveur.`,
    );
  }
}

/** execve("/proc/self/exe", the same arguments, env): returns only when it failed. */
function execSelf(env: Record<string, string | undefined>): void {
  // The process's own arguments as the kernel got them: a compiled executable shows others in process.argv.
  const args = readFileSync("/proc/self/cmdline", "latin1").split("\0").slice(0, -1);
  const vars = Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]));
  const libc = dlopen("libc.so.6", { execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 } });
  // The arguments' bytes go back as they came (latin1 both ways); the environment's strings are UTF-8.
  const strings = (list: string[], encoding: BufferEncoding) => list.map((s) => Buffer.from(`${s}\0`, encoding));
  const table = (buffers: Buffer[]) => {
    const pointers = new BigUint64Array(buffers.length + 1);
    buffers.forEach((b, i) => {
      pointers[i] = BigInt(ptr(b));
    });
    return pointers;
  };
  const argBuffers = strings(args, "latin1");
  const envBuffers = strings(vars, "utf8");
  const path = Buffer.from("/proc/self/exe\0");
  libc.symbols.execve(ptr(path), ptr(table(argBuffers)), ptr(table(envBuffers)));
  throw new Error("execve a échoué");
}
