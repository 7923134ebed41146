/**
 * Web start-up figures for the production build:
 *  1. initial JavaScript, gzipped: the entry script in dist/index.html plus its modulepreloads;
 *  2. time until the prompt box accepts input on localhost in headless Chromium (median of 5 fresh loads).
 * Run: npx tsx bench/web-startup.ts
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { startStudioServer } from "../e2e/fixtures/studio-server";
import { chromiumLaunchOptions, ensureProductionBuild, median, repoRoot, withDeadline } from "../e2e/fixtures/web-build";

const RUNS = 5;

function initialJavaScript(): { files: { file: string; raw: number; gzip: number }[]; gzipTotal: number; rawTotal: number } {
  const dist = path.join(repoRoot, "dist");
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((match) => match[1]);
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]);
  const files = [...new Set([...entries, ...preloads])]
    .filter((file): file is string => Boolean(file))
    .map((file) => {
      const bytes = readFileSync(path.join(dist, file.replace(/^\//, "")));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  return {
    files,
    rawTotal: files.reduce((sum, file) => sum + file.raw, 0),
    gzipTotal: files.reduce((sum, file) => sum + file.gzip, 0),
  };
}

async function main() {
  ensureProductionBuild();
  const js = initialJavaScript();
  console.log("Initial JavaScript (entry + modulepreload), gzip -9:");
  for (const file of js.files) console.log(`  ${file.file}  ${(file.raw / 1024).toFixed(1)} KB raw  ${(file.gzip / 1024).toFixed(1)} KB gzip`);
  console.log(`  total: ${(js.gzipTotal / 1024).toFixed(1)} KB gzip (${(js.rawTotal / 1024).toFixed(1)} KB raw)`);

  const server = await startStudioServer();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      // A fresh context each time: empty HTTP cache, no storage.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      // Record the moment the prompt box is in the DOM and enabled (before paint, via MutationObserver).
      // (A string, not a function: tsx would wrap a function with helpers the page doesn't have.)
      await page.addInitScript(`
        (() => {
          const observer = new MutationObserver(() => {
            const box = document.getElementById("prompt");
            if (box && !box.disabled && window.__promptReadyAt === undefined) {
              window.__promptReadyAt = performance.now();
              observer.disconnect();
            }
          });
          observer.observe(document, { childList: true, subtree: true });
        })();
      `);
      await withDeadline(page.goto(server.url), 30_000, "page load");
      await page.waitForFunction(() => (window as unknown as { __promptReadyAt?: number }).__promptReadyAt !== undefined, null, {
        timeout: 30_000,
      });
      // Prove it really accepts input: type, and see the text and the live counter.
      await page.locator("#prompt").pressSequentially("hi");
      const accepted = await page.evaluate(() => (document.getElementById("prompt") as HTMLTextAreaElement).value === "hi");
      if (!accepted) throw new Error("The prompt box did not take the typed text.");
      const readyAt = await page.evaluate(() => (window as unknown as { __promptReadyAt: number }).__promptReadyAt);
      times.push(readyAt);
      console.log(`  load ${run + 1}: prompt box ready at ${readyAt.toFixed(0)} ms`);
      await context.close();
    }
    console.log(`Time until the prompt box accepts input: median ${median(times).toFixed(0)} ms over ${RUNS} fresh loads`);
    console.log(`RESULT initial_js_gzip_kb=${(js.gzipTotal / 1024).toFixed(1)} prompt_ready_ms_median=${median(times).toFixed(0)}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await withDeadline(main(), 240_000, "web-startup bench").catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
