import { availableParallelism, totalmem } from "node:os";
import type { ExtractJob, ExtractResult } from "./extract-job.ts";
import { readerCommand } from "./reader-command.ts";
import type { WireResult } from "./reader-main.ts";
import { MEMORY_REFUSAL } from "./reading-budget.ts";

export type ReaderLimits = {
  /** Past it the reader process is killed and the file refused. */
  timeoutMs: number;
  /** Memory one file's reading may use (ATTACHMENT_EXTRACT_MAX_MB): the budget checked before decoding, and the process's limit above its start. */
  budgetBytes: number;
  /** Reader processes at once (ATTACHMENT_READERS); 0: as many as the cores and half the memory allow. */
  readers: number;
};

const MiB = 1024 * 1024;
/**
 * Address space Bun's engine reserves when it starts (JavaScriptCore's heap
 * and gigacage): measured on Bun 1.4.5, a reader under RLIMIT_AS of
 * 3 GiB could allocate about 1 GiB, under 4 GiB about 1.6 GiB.
 */
const ENGINE_RESERVED = 2048 * MiB;
/** Below 2.5 GiB in all, JavaScriptCore runs 25 times slower (a 12-megapixel PNG: 64 s against 2.7 s): the budget's check stays, the limit does not go under it. */
const LEAST_ADDRESS_SPACE = 2560 * MiB;

/** RLIMIT_AS of a reader process: a hard limit the kernel enforces, the same for every file whatever ran before. */
export function addressSpaceLimit(budgetBytes: number): number {
  return Math.max(LEAST_ADDRESS_SPACE, ENGINE_RESERVED + budgetBytes);
}

/** Readers at once: one per core, and no more than half the machine's memory holds at their limit (never fewer than one). */
export function readerCount(limits: Pick<ReaderLimits, "readers" | "budgetBytes">): number {
  if (limits.readers > 0) return limits.readers;
  return Math.max(1, Math.min(availableParallelism(), Math.floor(totalmem() / 2 / (limits.budgetBytes + 256 * MiB))));
}

type Task = { job: ExtractJob; resolve: (r: ExtractResult) => void; arrival: number };
type User = { waiting: Task[]; running: number; lastServed: number };

/**
 * Files read in separate processes (reader-main.ts), each under an
 * operating-system memory limit (prlimit's RLIMIT_AS: a hostile file fails
 * its own allocations and never grows the server), killed past its time. A
 * fair queue: each user's files wait in their own line, and a free reader
 * takes the file of the user served least recently (a user never served
 * first; equal, the file that came first), and one user holds at most all
 * readers but one: another user's file waits for no one's with two readers
 * or more, and for one file at most with a single reader.
 */
export class ReaderPool {
  private running = 0;
  private ticks = 0;
  /** Users with files waiting or being read; dropped when they have neither. */
  private readonly users = new Map<number, User>();
  readonly size: number;

  constructor(private readonly limits: ReaderLimits) {
    this.size = readerCount(limits);
  }

  read(userId: number, job: ExtractJob): Promise<ExtractResult> {
    return new Promise((resolve) => {
      let user = this.users.get(userId);
      if (!user) {
        user = { waiting: [], running: 0, lastServed: -1 };
        this.users.set(userId, user);
      }
      user.waiting.push({ job, resolve, arrival: ++this.ticks });
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.size) {
      let pick: [number, User] | undefined;
      // One user never holds every reader: with two or more, one is always left for the others.
      const perUser = Math.max(1, this.size - 1);
      for (const entry of this.users) {
        const [, u] = entry;
        if (u.waiting.length === 0 || u.running >= perUser) continue;
        if (!pick || u.lastServed < pick[1].lastServed || (u.lastServed === pick[1].lastServed && u.waiting[0]!.arrival < pick[1].waiting[0]!.arrival))
          pick = entry;
      }
      if (!pick) return;
      const [userId, user] = pick;
      const task = user.waiting.shift()!;
      user.lastServed = ++this.ticks;
      user.running++;
      this.running++;
      void readInProcess(task.job, this.limits)
        .then(task.resolve)
        .finally(() => {
          this.running--;
          user.running--;
          if (user.running === 0 && user.waiting.length === 0) this.users.delete(userId);
          this.next();
        });
    }
  }
}

function spawnReader(job: ExtractJob, limits: ReaderLimits) {
  return Bun.spawn(
    [
      "prlimit",
      `--as=${addressSpaceLimit(limits.budgetBytes)}`,
      "--core=0",
      "--",
      ...readerCommand(),
      job.kind,
      String(job.maxPages),
      String(limits.budgetBytes),
    ],
    // No secret reaches a reader: its environment is PATH alone.
    { stdin: new Blob([job.bytes as Uint8Array<ArrayBuffer>]), stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
  );
}

/** One file in one reader process: its bytes on stdin, its result as JSON on stdout. */
async function readInProcess(job: ExtractJob, limits: ReaderLimits): Promise<ExtractResult> {
  let timedOut = false;
  let proc: ReturnType<typeof spawnReader>;
  try {
    proc = spawnReader(job, limits);
  } catch (e) {
    // No prlimit on the PATH (util-linux): the file is refused, the operator's log says why.
    return { ok: false, reason: "ce fichier n'a pas pu être lu", detail: `reader not started (prlimit from util-linux is needed): ${String(e)}` };
  }
  const deadline = setTimeout(() => {
    timedOut = true;
    proc.kill("SIGKILL");
  }, limits.timeoutMs);
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  clearTimeout(deadline);
  if (timedOut) return { ok: false, reason: "sa lecture a pris trop de temps" };
  try {
    return fromWire(JSON.parse(out) as WireResult);
  } catch {
    // No result: the process died. Under its limit that is an allocation that failed outside JavaScript (a panic, an abort).
    const memory = proc.signalCode !== null || /memory|alloc|panic/i.test(err);
    return { ok: false, reason: memory ? MEMORY_REFUSAL : "ce fichier n'a pas pu être lu", detail: err.slice(-2000) };
  }
}

function fromWire(wire: WireResult): ExtractResult {
  if (!wire.ok || !wire.image) return wire as ExtractResult;
  const { modelImage, thumbnail } = wire.image;
  return { ...wire, image: { ...wire.image, modelImage: Buffer.from(modelImage, "base64"), thumbnail: Buffer.from(thumbnail, "base64") } };
}
