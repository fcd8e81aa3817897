/** What saving needs of an answer: a fetch Response, or the hono client's. */
type Download = { headers: Headers; blob(): Promise<Blob> };

/** Name of a download from the server's Content-Disposition, or the fallback. */
function fileName(res: Download, fallback: string): string {
  return /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallback;
}

/**
 * Saves an authenticated answer as a file: the API needs the bearer token,
 * which a plain link cannot carry, so the body is fetched and handed to the
 * browser as a blob.
 */
export async function saveResponse(res: Download, fallback: string): Promise<void> {
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
