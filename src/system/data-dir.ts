import { frOps } from "../i18n/fr-ops.ts";
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { RefusedError } from "../lib/errors.ts";

const DENIED = new Set(["EACCES", "EPERM", "EROFS"]);

/**
 * Runs `write` (creating or opening files in `folder`); a refusal of the
 * system becomes one line naming the path, the uid the process runs as and
 * the fix, instead of a bare "EACCES: permission denied". A Docker bind mount
 * owned by someone else than the image's uid 10001 is the usual cause.
 */
export function explainNotWritable<T>(folder: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (!err.code || !DENIED.has(err.code)) throw e;
    // The folder to hand over is the nearest one that exists (a missing one is created by its parent's owner).
    let owned = resolve(folder);
    while (!existsSync(owned) && dirname(owned) !== owned) owned = dirname(owned);
    throw new RefusedError(frOps.dataDir.notWritable(resolve(err.path ?? folder), owned, process.getuid?.() ?? -1, process.getgid?.() ?? -1));
  }
}

/**
 * The data folder must be a folder: a file of that name would otherwise fail
 * deep in a mkdir (« EEXIST: file already exists »), or as « no database ».
 */
export function refuseFileAsDataDir(dataDir: string): void {
  let isFile = false;
  try {
    isFile = !statSync(dataDir).isDirectory();
  } catch {
    // Missing (created when needed) or unreadable (refused where it is written, explainNotWritable).
  }
  if (isFile) throw new RefusedError(frOps.start.dataDirIsFile(resolve(dataDir)));
}
