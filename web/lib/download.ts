/** Name of a download from the server's Content-Disposition, or the fallback. */
function fileName(res: Response, fallback: string): string {
  return /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallback;
}

/**
 * Saves an authenticated answer as a file: the API needs the bearer token,
 * which a plain link cannot carry, so the body is fetched and handed to the
 * browser as a blob.
 */
export async function saveResponse(res: Response, fallback: string): Promise<void> {
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName(res, fallback);
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
