/** 7 s → "0:07", 75 s → "1:15", 3725 s → "1:02:05". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  return `${minutes}:${ss}`;
}

/** How long something took: "0.4 s", "12 s", "1:15". */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  return formatElapsed(ms);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb.toFixed(mb < 10 ? 1 : 0).replace(/\.0$/, "")} MB`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDateTime(ms: number): string {
  return dateTime.format(new Date(ms));
}

/** "PNG, JPEG, WebP or GIF" from MIME types. */
export function formatImageTypes(mimes: readonly string[]): string {
  const names = mimes.map((mime) => {
    const sub = mime.split("/")[1] ?? mime;
    if (sub === "webp") return "WebP";
    return sub.toUpperCase();
  });
  const unique = [...new Set(names)];
  if (unique.length <= 1) return unique.join("");
  return `${unique.slice(0, -1).join(", ")} or ${unique.at(-1)}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
