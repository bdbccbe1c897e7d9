import { AppError, appErrorFromResponse } from "@/lib/errors";
import { NETWORK_ERROR_MESSAGE } from "@/lib/api-client";

/**
 * Downloads one export (lib/server/export/) while counting its rows: the response is read as
 * a stream, each chunk kept for the file and its line breaks counted (every row ends with
 * one; a CSV cell holding a line break counts twice, which only makes the progress run
 * ahead a little). Aborting the signal stops the request, and so the server's reading.
 * Loaded on the first click of an Export menu, not with the screen.
 */
export async function runExport(url: string, { signal, onRows }: { signal: AbortSignal; onRows: (rows: number) => void }): Promise<{ rows: number; fileName: string }> {
  let res: Response;
  try {
    res = await fetch(url, { signal, credentials: "same-origin", cache: "no-store" });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new AppError(0, "network_error", NETWORK_ERROR_MESSAGE);
  }
  if (!res.ok || !res.body) throw await appErrorFromResponse(res);
  const csv = (res.headers.get("content-type") ?? "").includes("text/csv");
  const chunks: BlobPart[] = [];
  let lines = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    // The CSV header is a line, not a row.
    onRows(Math.max(0, lines - (csv ? 1 : 0)));
  }
  const rows = Math.max(0, lines - (csv ? 1 : 0));
  const fileName = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "export";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob(chunks, { type: res.headers.get("content-type") ?? "application/octet-stream" }));
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return { rows, fileName };
}
