import { existsSync } from "node:fs";
import { createCanvas, GlobalFonts, ImageData } from "@napi-rs/canvas";
import type { Canvas, SKRSContext2D } from "@napi-rs/canvas";
import sharp from "sharp";

export interface ImageDimensions {
  width: number;
  height: number;
}

export interface RenderImageOptions {
  prompt: string;
  aspectRatio?: string;
  reference?: Uint8Array;
  longEdge?: number;
}

const DEFAULT_LONG_EDGE = 1024;
const MIN_SIDE = 64;
const MAX_LONG_EDGE = 4096;

/** "16:9" -> 1024x576 when longEdge=1024; undefined or invalid -> square. Both sides rounded to multiples of 8, at least 64. */
export function dimensionsForAspectRatio(aspectRatio: string | undefined, longEdge = DEFAULT_LONG_EDGE): ImageDimensions {
  const edge = roundToMultipleOf8(clamp(Number.isFinite(longEdge) ? longEdge : DEFAULT_LONG_EDGE, MIN_SIDE, MAX_LONG_EDGE));
  const ratio = parseAspectRatio(aspectRatio) ?? 1;
  if (ratio >= 1) return { width: edge, height: roundToMultipleOf8(edge / ratio) };
  return { width: roundToMultipleOf8(edge * ratio), height: edge };
}

/** Returns PNG bytes. */
export async function renderImage(options: RenderImageOptions): Promise<Buffer> {
  const { width, height } = dimensionsForAspectRatio(options.aspectRatio, options.longEdge);
  const scene = createScene(options.prompt);
  const reference = options.reference ? await loadReferenceCanvas(options.reference, width, height) : undefined;

  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  if (reference) {
    drawBackground(ctx, scene, width, height, 0);
    ctx.drawImage(reference, 0, 0, width, height);
    drawReferenceOverlay(ctx, scene, width, height, 0);
  } else {
    drawScene(ctx, scene, width, height, 0);
  }
  drawPromptBand(ctx, layoutPromptBand(ctx, options.prompt, width, height), width, height);
  return encodeOpaquePng(canvas);
}

/**
 * PNG bytes of a canvas whose every pixel is opaque (all our pictures start with a full background).
 * sharp's encoder is several times faster than the canvas's own, and opaque pixels need no un-premultiplying.
 */
export async function encodeOpaquePng(canvas: Canvas): Promise<Buffer> {
  return sharp(canvas.data(), { raw: { width: canvas.width, height: canvas.height, channels: 4 } }).removeAlpha().png().toBuffer();
}

// ---- Aspect ratio ----

function parseAspectRatio(aspectRatio: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(aspectRatio ?? "");
  if (!match) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined;
}

function roundToMultipleOf8(value: number): number {
  return Math.max(MIN_SIDE, Math.round(value / 8) * 8);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

// ---- Seeded randomness ----

export type Random = () => number;

/** FNV-1a over the UTF-8 bytes: a stable 32-bit seed for a prompt. */
export function seedFromPrompt(prompt: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(prompt)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: small, fast, and good enough to spread a seed across a picture. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function between(random: Random, min: number, max: number): number {
  return min + random() * (max - min);
}

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick() needs a non-empty list.");
  return item;
}

// ---- Scene: everything a picture is made of, derived from the prompt's seed ----

interface Hsl {
  h: number;
  s: number;
  l: number;
}

interface Glow {
  x: number;
  y: number;
  radius: number;
  color: Hsl;
  driftX: number;
  driftY: number;
  phase: number;
}

type ShapeKind = "disc" | "ring" | "square" | "wave";

interface Shape {
  kind: ShapeKind;
  x: number;
  y: number;
  size: number;
  rotation: number;
  spin: number;
  color: Hsl;
  alpha: number;
  driftX: number;
  driftY: number;
  phase: number;
}

/** Positions and sizes are fractions of the canvas (sizes of its short side), so a scene fits any aspect ratio. */
export interface Scene {
  backgroundFrom: Hsl;
  backgroundTo: Hsl;
  gradientAngle: number;
  glows: Glow[];
  shapes: Shape[];
  tint: Hsl;
}

const HARMONIES: readonly (readonly number[])[] = [
  [0, 25, 50, -25], // analogous
  [0, 180, 20, 200], // complementary
  [0, 120, 240, 60], // triadic
  [0, 150, 210, 30], // split complementary
];

export function createScene(prompt: string): Scene {
  const random = createRandom(seedFromPrompt(prompt));
  const baseHue = random() * 360;
  const hues = pick(random, HARMONIES).map((offset) => (baseHue + offset + 360) % 360);
  const isDark = random() < 0.6;
  const accent = (): Hsl => ({
    h: pick(random, hues),
    s: between(random, 55, 85),
    l: isDark ? between(random, 45, 65) : between(random, 40, 60),
  });
  const hueAt = (index: number): number => hues[index % hues.length] ?? baseHue;

  return {
    backgroundFrom: { h: hueAt(0), s: between(random, 35, 60), l: isDark ? between(random, 8, 16) : between(random, 82, 90) },
    backgroundTo: { h: hueAt(1), s: between(random, 35, 60), l: isDark ? between(random, 20, 32) : between(random, 66, 78) },
    gradientAngle: random() * Math.PI * 2,
    glows: Array.from({ length: 3 + Math.floor(random() * 3) }, () => ({
      x: random(),
      y: random(),
      radius: between(random, 0.3, 0.65),
      color: accent(),
      driftX: between(random, -0.12, 0.12),
      driftY: between(random, -0.12, 0.12),
      phase: random(),
    })),
    shapes: Array.from({ length: 6 + Math.floor(random() * 7) }, () => createShape(random, accent)),
    tint: accent(),
  };
}

function createShape(random: Random, accent: () => Hsl): Shape {
  const kind = pick(random, ["disc", "disc", "ring", "ring", "square", "wave"] as const);
  const isWave = kind === "wave";
  return {
    kind,
    x: between(random, 0.08, 0.92),
    // Waves fill down to the bottom edge, so they sit low like hills.
    y: isWave ? between(random, 0.5, 0.85) : between(random, 0.08, 0.8),
    size: between(random, 0.06, 0.32),
    rotation: random() * Math.PI * 2,
    spin: between(random, -1, 1),
    color: accent(),
    alpha: isWave ? between(random, 0.35, 0.6) : between(random, 0.45, 0.85),
    driftX: between(random, -0.08, 0.08),
    driftY: between(random, -0.08, 0.08),
    phase: random(),
  };
}

function hsla(color: Hsl, alpha = 1): string {
  return `hsla(${color.h.toFixed(1)}, ${color.s.toFixed(1)}%, ${color.l.toFixed(1)}%, ${alpha})`;
}

/** One full swing back and forth over time 0..1, so a video's motion is smooth. */
function sway(phase: number, time: number): number {
  return Math.sin((phase + time) * Math.PI * 2);
}

// ---- Drawing ----

/** Draws the generative picture; time 0..1 moves it along (a still image uses 0). */
export function drawScene(ctx: SKRSContext2D, scene: Scene, width: number, height: number, time: number): void {
  drawBackground(ctx, scene, width, height, time);
  for (const glow of scene.glows) drawGlow(ctx, glow, width, height, time, 0.55);
  for (const shape of scene.shapes) drawShape(ctx, shape, width, height, time);
}

export function drawBackground(ctx: SKRSContext2D, scene: Scene, width: number, height: number, time: number): void {
  const angle = scene.gradientAngle + time * 0.6;
  const reach = Math.hypot(width, height) / 2;
  const dx = Math.cos(angle) * reach;
  const dy = Math.sin(angle) * reach;
  const gradient = ctx.createLinearGradient(width / 2 - dx, height / 2 - dy, width / 2 + dx, height / 2 + dy);
  gradient.addColorStop(0, hsla(scene.backgroundFrom));
  gradient.addColorStop(1, hsla(scene.backgroundTo));
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
}

/** A seed-coloured tint and soft glows over a reference image, light enough that the reference stays recognisable. */
export function drawReferenceOverlay(ctx: SKRSContext2D, scene: Scene, width: number, height: number, time: number): void {
  ctx.save();
  ctx.globalCompositeOperation = "soft-light";
  ctx.fillStyle = hsla(scene.tint, 0.5);
  ctx.fillRect(0, 0, width, height);
  ctx.restore();
  for (const glow of scene.glows.slice(0, 2)) drawGlow(ctx, glow, width, height, time, 0.22);
  for (const shape of scene.shapes.filter((s) => s.kind === "ring").slice(0, 3)) {
    drawShape(ctx, { ...shape, alpha: shape.alpha * 0.35 }, width, height, time);
  }
}

function drawGlow(ctx: SKRSContext2D, glow: Glow, width: number, height: number, time: number, strength: number): void {
  const x = (glow.x + glow.driftX * sway(glow.phase, time)) * width;
  const y = (glow.y + glow.driftY * sway(glow.phase + 0.25, time)) * height;
  const radius = glow.radius * Math.max(width, height);
  const gradient = ctx.createRadialGradient(x, y, 0, x, y, radius);
  gradient.addColorStop(0, hsla(glow.color, strength));
  gradient.addColorStop(1, hsla(glow.color, 0));
  ctx.fillStyle = gradient;
  ctx.fillRect(x - radius, y - radius, radius * 2, radius * 2);
}

function drawShape(ctx: SKRSContext2D, shape: Shape, width: number, height: number, time: number): void {
  const unit = Math.min(width, height);
  const x = (shape.x + shape.driftX * sway(shape.phase, time)) * width;
  const y = (shape.y + shape.driftY * sway(shape.phase + 0.25, time)) * height;
  const size = shape.size * unit;
  ctx.save();
  ctx.globalAlpha = shape.alpha;
  ctx.translate(x, y);
  ctx.rotate(shape.rotation + shape.spin * time * Math.PI);
  ctx.fillStyle = hsla(shape.color);
  ctx.strokeStyle = hsla(shape.color);
  switch (shape.kind) {
    case "disc":
      ctx.beginPath();
      ctx.arc(0, 0, size, 0, Math.PI * 2);
      ctx.fill();
      break;
    case "ring":
      ctx.lineWidth = Math.max(1, size * 0.14);
      ctx.beginPath();
      ctx.arc(0, 0, size, 0, Math.PI * 2);
      ctx.stroke();
      break;
    case "square":
      ctx.beginPath();
      ctx.roundRect(-size * 0.7, -size * 0.7, size * 1.4, size * 1.4, size * 0.18);
      ctx.fill();
      break;
    case "wave":
      ctx.rotate(-(shape.rotation + shape.spin * time * Math.PI)); // waves stay horizontal
      drawWave(ctx, { x, y }, size, { width, height }, time, shape.phase);
      break;
  }
  ctx.restore();
}

/** Rolling hills: a sine-shaped edge across the whole width, filled down to the bottom. The context's origin is at `origin`. */
function drawWave(ctx: SKRSContext2D, origin: { x: number; y: number }, amplitude: number, canvas: ImageDimensions, time: number, phase: number): void {
  const segments = 48;
  ctx.beginPath();
  for (let index = 0; index <= segments; index += 1) {
    const px = -origin.x + (index / segments) * canvas.width;
    const py = Math.sin((index / segments) * Math.PI * 3 + (phase + time) * Math.PI * 2) * amplitude * 0.35;
    if (index === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.lineTo(canvas.width - origin.x, canvas.height - origin.y);
  ctx.lineTo(-origin.x, canvas.height - origin.y);
  ctx.closePath();
  ctx.fill();
}

// ---- Prompt text ----

export interface PromptBand {
  lines: string[];
  font: string;
  fontSize: number;
}

const BAND_MAX_LINES = 3;
const ELLIPSIS = "…";
const FALLBACK_FONT_DIRS = ["/usr/share/fonts", "/usr/local/share/fonts", "/System/Library/Fonts", "C:\\Windows\\Fonts"];
const PREFERRED_FAMILIES = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial", "Helvetica"];

let cachedFontFamily: string | null | undefined;

/** The family to draw text with, or null when no font can be found (text is then skipped rather than crashing). */
export function textFontFamily(): string | null {
  if (cachedFontFamily !== undefined) return cachedFontFamily;
  if (GlobalFonts.families.length === 0) {
    for (const dir of FALLBACK_FONT_DIRS) if (existsSync(dir)) GlobalFonts.loadFontsFromDir(dir);
  }
  const available = GlobalFonts.families.map((entry) => entry.family);
  cachedFontFamily = PREFERRED_FAMILIES.find((family) => available.includes(family)) ?? available[0] ?? null;
  return cachedFontFamily;
}

/** Wraps the prompt into at most three lines that fit the canvas, ending with an ellipsis when it had to cut. */
export function layoutPromptBand(ctx: SKRSContext2D, prompt: string, width: number, height: number): PromptBand {
  const family = textFontFamily();
  const text = prompt.replace(/\s+/g, " ").trim();
  const fontSize = Math.max(11, Math.round(Math.min(width, height) * 0.045));
  const font = `600 ${fontSize}px "${family ?? "sans-serif"}"`;
  if (!family || !text) return { lines: [], font, fontSize };

  ctx.save();
  ctx.font = font;
  const maxWidth = width - fontSize * 2;
  // No glyph is narrower than a fifth of the font size, so more text than this can never fit the band;
  // cutting it first keeps wrapping a 3000-character prompt as fast as a short one.
  const fitsAtMost = Math.ceil((BAND_MAX_LINES * maxWidth) / (fontSize * 0.2)) + 1;
  const lines = wrapText(text.slice(0, fitsAtMost), maxWidth, (candidate) => ctx.measureText(candidate).width);
  ctx.restore();
  return { lines, font, fontSize };
}

function wrapText(text: string, maxWidth: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of splitLongWords(text.split(" "), maxWidth, measure)) {
    const candidate = current ? `${current} ${word}` : word;
    if (measure(candidate) <= maxWidth || !current) {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = word;
    if (lines.length === BAND_MAX_LINES) return withEllipsis(lines, maxWidth, measure);
  }
  if (current) lines.push(current);
  return lines;
}

/** Breaks words wider than a line (URLs, long tokens) into pieces that fit. */
function splitLongWords(words: string[], maxWidth: number, measure: (text: string) => number): string[] {
  const pieces: string[] = [];
  for (const word of words) {
    let rest = word;
    while (measure(rest) > maxWidth && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && measure(rest.slice(0, cut)) > maxWidth) cut -= 1;
      pieces.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    pieces.push(rest);
  }
  return pieces;
}

function withEllipsis(lines: string[], maxWidth: number, measure: (text: string) => number): string[] {
  let last = lines.at(-1) ?? "";
  while (last.length > 0 && measure(`${last}${ELLIPSIS}`) > maxWidth) last = last.slice(0, -1).trimEnd();
  return [...lines.slice(0, -1), `${last}${ELLIPSIS}`];
}

/** A translucent dark band at the bottom with the prompt in white, readable over any picture. */
export function drawPromptBand(ctx: SKRSContext2D, band: PromptBand, width: number, height: number): void {
  if (band.lines.length === 0) return;
  const lineHeight = Math.round(band.fontSize * 1.3);
  const padding = Math.round(band.fontSize * 0.8);
  const bandHeight = band.lines.length * lineHeight + padding * 2;
  ctx.save();
  ctx.fillStyle = "rgba(0, 0, 0, 0.5)";
  ctx.fillRect(0, height - bandHeight, width, bandHeight);
  ctx.font = band.font;
  ctx.fillStyle = "#ffffff";
  ctx.textBaseline = "middle";
  band.lines.forEach((line, index) => {
    ctx.fillText(line, band.fontSize, height - bandHeight + padding + lineHeight * (index + 0.5));
  });
  ctx.restore();
}

// ---- Reference images ----

/** Decodes a reference image (honouring EXIF orientation) and crops it to cover width x height. */
export async function loadReferenceCanvas(bytes: Uint8Array, width: number, height: number): Promise<Canvas> {
  let pixels: Buffer;
  try {
    pixels = await sharp(bytes).rotate().resize(width, height, { fit: "cover" }).ensureAlpha().raw().toBuffer();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The reference image could not be read (expected PNG, JPEG, WebP or GIF): ${reason}`, { cause: error });
  }
  const canvas = createCanvas(width, height);
  canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.length), width, height), 0, 0);
  return canvas;
}
