/**
 * Peak RSS of the studio server while it forwards 10 concurrent 20 MB multipart uploads to the
 * provider. Uploads stream to disk and out again, so the peak should stay far below 10 × 20 MB.
 * The sandbox runs as its own process so that only the studio's memory is measured.
 */
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { startSandboxAndStudio } from "./processes";

const UPLOADS = 10;
const TARGET_BYTES = 20 * 1024 * 1024;

async function kibibytes(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

/** Random pixels do not compress, so this PNG is as large as its raw pixels: about 20 MB. */
async function twentyMegabytePng(): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(TARGET_BYTES / 3));
  const pixels = Buffer.alloc(side * side * 3);
  for (let index = 0; index < pixels.length; index += 4) pixels.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, Math.min(index, pixels.length - 4));
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

const { studio, stop } = await startSandboxAndStudio();

try {
  const png = await twentyMegabytePng();
  // Warm the server's code paths so the idle figure is fair.
  await fetch(`${studio.url}/api/studio/config`);
  const idleRss = await kibibytes(studio.pid, "VmRSS");
  let sampledPeak = idleRss;
  const sampler = setInterval(() => {
    void kibibytes(studio.pid, "VmRSS").then((rss) => {
      sampledPeak = Math.max(sampledPeak, rss);
    });
  }, 20);

  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: UPLOADS }, async (_, index) => {
      const form = new FormData();
      form.set("prompt", `upload ${index}`);
      form.set("model", "sandbox-image-1");
      form.set("image", new Blob([new Uint8Array(png)], { type: "image/png" }), `big-${index}.png`);
      const response = await fetch(`${studio.url}/api/ai/images/generations`, { method: "POST", headers: { authorization: "Bearer script" }, body: form });
      await response.arrayBuffer();
      return response.status;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peak = Math.max(sampledPeak, await kibibytes(studio.pid, "VmHWM"));

  const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`;
  console.log(`${UPLOADS} concurrent uploads of ${(png.length / 1024 / 1024).toFixed(1)} MB (sum ${((png.length * UPLOADS) / 1024 / 1024).toFixed(0)} MB) through the studio in ${seconds.toFixed(1)} s; statuses ${[...new Set(statuses)].join(",")}`);
  console.log(`studio RSS: idle ${mb(idleRss)}, peak ${mb(peak)} (peak − idle ${mb(peak - idleRss)})`);
} finally {
  await stop();
}
