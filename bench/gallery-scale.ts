/**
 * Gallery at scale: seeds a fresh ledger with 10,000 finished generations (straight into SQLite
 * through the server's Ledger), starts the studio on it and measures in headless Chromium:
 *  - time to first gallery tiles (ms from navigation start; and to the first decoded thumbnail),
 *  - DOM element count while scrolled to the middle of all 10,000 items,
 *  - frame times while scrolling fast through the grid.
 * Run: npx tsx bench/gallery-scale.ts
 */
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import sharp from "sharp";
import { startStudioServer } from "../e2e/fixtures/studio-server";
import { openLedgerDatabase } from "../src/server/ledger/database";
import { Ledger } from "../src/server/ledger/ledger";
import { chromiumLaunchOptions, ensureProductionBuild, median, withDeadline } from "../e2e/fixtures/web-build";

const ITEMS = 10_000;
const VARIANTS = 24;
const words = ["harbour", "teapot", "owl", "forest", "neon", "ceramic", "greenhouse", "dune", "lemon", "railway", "fern", "lighthouse"];

async function seedLedger(dataDir: string): Promise<void> {
  // A handful of real pictures shared by all rows, so tiles show something and bytes stay small.
  const mediaDir = path.join(dataDir, "media", "bench");
  await mkdir(mediaDir, { recursive: true });
  for (let variant = 0; variant < VARIANTS; variant += 1) {
    const hue = Math.round((variant / VARIANTS) * 360);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 70) % 360},60%,28%)"/></linearGradient></defs><rect width="512" height="512" fill="url(#g)"/><circle cx="340" cy="190" r="80" fill="rgba(255,255,255,0.8)"/></svg>`;
    const picture = sharp(Buffer.from(svg));
    await picture.clone().png().toFile(path.join(mediaDir, `${variant}.png`));
    await picture.clone().resize(256, 256).webp({ quality: 70 }).toFile(path.join(mediaDir, `${variant}-thumb.webp`));
  }

  const db = openLedgerDatabase(path.join(dataDir, "ledger.sqlite"));
  const ledger = new Ledger(db);
  const start = Date.now() - ITEMS * 60_000;
  db.transaction(() => {
    for (let index = 0; index < ITEMS; index += 1) {
      const variant = index % VARIANTS;
      const now = start + index * 60_000;
      const prompt = `#${index + 1} ${words[index % words.length]} study in ${words[(index * 7) % words.length]} light, variant ${variant}`;
      const generation = ledger.createGeneration({ kind: "image", prompt, model: "sandbox-image-1", params: { aspect_ratio: "1:1" }, references: [], now });
      ledger.transition(generation.id, "success", {
        now: now + 800,
        outputs: [{ index: 0, providerUrl: `http://127.0.0.1:9/bench/${variant}.png`, providerCoverUrl: null, mime: "image/png" }],
      });
      ledger.recordMirroredOutput(generation.id, {
        index: 0,
        filePath: `media/bench/${variant}.png`,
        coverPath: null,
        thumbnailPath: `media/bench/${variant}-thumb.webp`,
        width: 512,
        height: 512,
      });
    }
  })();
  db.close();
}

const firstTileProbe = `
  (() => {
    const probe = () => {
      const tile = document.querySelector("[data-gallery-id]");
      if (tile && window.__firstTileAt === undefined) window.__firstTileAt = performance.now();
      const img = tile && tile.querySelector("img");
      if (img && img.complete && img.naturalWidth > 0 && window.__firstThumbAt === undefined) window.__firstThumbAt = performance.now();
      if (window.__firstThumbAt === undefined) requestAnimationFrame(probe);
    };
    const observer = new MutationObserver(() => {
      if (document.querySelector("[data-gallery-id]")) { observer.disconnect(); probe(); }
    });
    observer.observe(document, { childList: true, subtree: true });
  })();
`;

async function loadedCount(page: Page): Promise<{ count: number; more: boolean }> {
  const text = (await page.locator('section[aria-labelledby="gallery-heading"] [aria-live="polite"]').textContent()) ?? "";
  return { count: Number(text.replace(/[^\d]/g, "")) || 0, more: text.includes("+") };
}

async function main() {
  ensureProductionBuild();
  const dataDir = await mkdtemp(path.join(tmpdir(), "media-studio-bench-"));
  const seedStart = performance.now();
  await seedLedger(dataDir);
  console.log(`Seeded ${ITEMS.toLocaleString("en-US")} generations in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const server = await startStudioServer({ dataDir });
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    // 1. Time to first tiles, median of 3 fresh loads.
    const tiles: number[] = [];
    const thumbs: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(firstTileProbe);
      await page.goto(server.url);
      await page.waitForFunction("window.__firstThumbAt !== undefined", null, { timeout: 30_000 });
      const [tile, thumb, list] = (await page.evaluate(`[
        window.__firstTileAt,
        window.__firstThumbAt,
        performance.getEntriesByType("resource").find((entry) => entry.name.includes("/api/studio/generations?status=success"))
      ].map((value) => (typeof value === "number" ? value : value ? [value.startTime, value.responseEnd] : null))`)) as [number, number, [number, number] | null];
      tiles.push(tile);
      thumbs.push(thumb);
      const listTiming = list ? ` (first page requested at ${list[0].toFixed(0)} ms, answered at ${list[1].toFixed(0)} ms)` : "";
      console.log(`  load ${run + 1}: first tiles at ${tile.toFixed(0)} ms, first thumbnail decoded at ${thumb.toFixed(0)} ms${listTiming}`);
      await context.close();
    }

    // 2. Load every page by scrolling, then sit in the middle and count the DOM.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator("[data-gallery-id]").first().waitFor();
    const loadStart = performance.now();
    for (;;) {
      const before = await loadedCount(page);
      if (!before.more) break;
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction(
        (previous) => {
          const label = document.querySelector('section[aria-labelledby="gallery-heading"] [aria-live="polite"]')?.textContent ?? "";
          return Number(label.replace(/[^\d]/g, "")) > previous;
        },
        before.count,
        { timeout: 15_000 },
      );
    }
    const all = await loadedCount(page);
    console.log(`Scrolled through ${all.count.toLocaleString("en-US")} items in ${((performance.now() - loadStart) / 1000).toFixed(1)} s (infinite scroll, ${Math.ceil(all.count / 120)} pages)`);

    await page.evaluate(() => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2));
    await page.waitForTimeout(500);
    const middle = await page.evaluate(() => {
      const tilesInDom = [...document.querySelectorAll("[data-gallery-id]")];
      const positions = tilesInDom.map((tile) => Number(tile.parentElement?.getAttribute("aria-posinset") ?? 0));
      return {
        elements: document.getElementsByTagName("*").length,
        tiles: tilesInDom.length,
        from: Math.min(...positions),
        to: Math.max(...positions),
      };
    });
    console.log(`In the middle: ${middle.elements} DOM elements, ${middle.tiles} tiles mounted (items ${middle.from}–${middle.to} of ${all.count})`);

    // 3. Frame times while scrolling 400 px per frame through the middle of the grid.
    const frames = (await page.evaluate(`new Promise((resolve) => {
      const deltas = []; let last = performance.now(); let n = 0;
      const step = (now) => { deltas.push(now - last); last = now; window.scrollBy(0, 400); if (++n < 150) requestAnimationFrame(step); else resolve(deltas.slice(1)); };
      requestAnimationFrame(step);
    })`)) as number[];
    const sorted = [...frames].sort((a, b) => a - b);
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
    console.log(`Scrolling 400 px/frame: median frame ${median(frames).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, worst ${(sorted.at(-1) ?? 0).toFixed(1)} ms`);
    await context.close();

    console.log(
      `RESULT first_tiles_ms_median=${median(tiles).toFixed(0)} first_thumbnail_ms_median=${median(thumbs).toFixed(0)} dom_elements_middle=${middle.elements} tiles_mounted_middle=${middle.tiles}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await withDeadline(main(), 300_000, "gallery-scale bench").catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
