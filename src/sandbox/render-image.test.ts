import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { dimensionsForAspectRatio, renderImage } from "./render-image";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function meanColour(image: Uint8Array): Promise<[number, number, number]> {
  const { channels } = await sharp(image).stats();
  return [channels[0]?.mean ?? NaN, channels[1]?.mean ?? NaN, channels[2]?.mean ?? NaN];
}

async function meanPixelDifference(a: Uint8Array, b: Uint8Array): Promise<number> {
  const [left, right] = await Promise.all([a, b].map((image) => sharp(image).removeAlpha().raw().toBuffer()));
  if (!left || !right || left.length !== right.length) throw new Error("Images must have the same size.");
  let total = 0;
  for (let index = 0; index < left.length; index += 1) total += Math.abs((left[index] ?? 0) - (right[index] ?? 0));
  return total / left.length;
}

function solidImage(colour: { r: number; g: number; b: number }, width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

describe("dimensionsForAspectRatio", () => {
  it("puts the long edge on the wider side", () => {
    expect(dimensionsForAspectRatio("16:9")).toEqual({ width: 1024, height: 576 });
    expect(dimensionsForAspectRatio("9:16")).toEqual({ width: 576, height: 1024 });
    expect(dimensionsForAspectRatio("4:3", 512)).toEqual({ width: 512, height: 384 });
  });

  it("falls back to a square for a missing or malformed ratio", () => {
    expect(dimensionsForAspectRatio(undefined)).toEqual({ width: 1024, height: 1024 });
    expect(dimensionsForAspectRatio("wide")).toEqual({ width: 1024, height: 1024 });
    expect(dimensionsForAspectRatio("0:9")).toEqual({ width: 1024, height: 1024 });
    expect(dimensionsForAspectRatio("16:0")).toEqual({ width: 1024, height: 1024 });
  });

  it("rounds both sides to multiples of 8 and never goes below 64", () => {
    expect(dimensionsForAspectRatio("21:9")).toEqual({ width: 1024, height: 440 });
    expect(dimensionsForAspectRatio("3:2")).toEqual({ width: 1024, height: 680 });
    expect(dimensionsForAspectRatio("99:1")).toEqual({ width: 1024, height: 64 });
    expect(dimensionsForAspectRatio("1:1", 30)).toEqual({ width: 64, height: 64 });
  });
});

describe("renderImage", () => {
  it.each([
    ["1:1", 1024, 1024],
    ["16:9", 1024, 576],
    ["9:16", 576, 1024],
    ["4:3", 1024, 768],
    ["21:9", 1024, 440],
    [undefined, 1024, 1024],
  ])("renders a PNG at aspect ratio %s as %ix%i", async (aspectRatio, width, height) => {
    const png = await renderImage({ prompt: "a lighthouse in a storm", aspectRatio });

    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const metadata = await sharp(png).metadata();
    expect(metadata.format).toBe("png");
    expect({ width: metadata.width, height: metadata.height }).toEqual({ width, height });
  });

  it("honours a smaller long edge", async () => {
    const metadata = await sharp(await renderImage({ prompt: "tiny", aspectRatio: "3:2", longEdge: 256 })).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual({ width: 256, height: 168 });
  });

  it("is deterministic: the same options give byte-identical PNGs", async () => {
    const options = { prompt: "a fox in the snow", aspectRatio: "16:9" };
    const [first, second] = await Promise.all([renderImage(options), renderImage(options)]);
    expect(first.equals(second)).toBe(true);
  });

  it("draws visibly different pictures for different prompts", async () => {
    const prompts = ["a fox in the snow", "a fox in the snow!", "neon city at night"];
    const images = await Promise.all(prompts.map((prompt) => renderImage({ prompt, longEdge: 256 })));
    const [fox, foxExcited, city] = images as [Buffer, Buffer, Buffer];

    expect(await meanPixelDifference(fox, foxExcited)).toBeGreaterThan(15);
    expect(await meanPixelDifference(fox, city)).toBeGreaterThan(15);
  });

  it("copes with very long prompts and empty prompts", async () => {
    const long = `${"an extraordinarily detailed description ".repeat(60)}https://example.com/${"x".repeat(300)}`;
    for (const prompt of [long, "", "   \n  "]) {
      const metadata = await sharp(await renderImage({ prompt, longEdge: 256 })).metadata();
      expect(metadata.width).toBe(256);
    }
  });

  it("derives the picture from a reference image", async () => {
    const red = { r: 220, g: 30, b: 30 };
    const png = await renderImage({ prompt: "make it moodier", aspectRatio: "16:9", longEdge: 512, reference: await solidImage(red) });

    const metadata = await sharp(png).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual({ width: 512, height: 288 });
    const [r, g, b] = await meanColour(png);
    expect(Math.abs(r - red.r)).toBeLessThan(50);
    expect(Math.abs(g - red.g)).toBeLessThan(50);
    expect(Math.abs(b - red.b)).toBeLessThan(50);
  });

  it("gives different results for different references with the same prompt", async () => {
    const prompt = "same prompt";
    const [fromRed, fromBlue] = await Promise.all([
      renderImage({ prompt, longEdge: 256, reference: await solidImage({ r: 220, g: 30, b: 30 }) }),
      renderImage({ prompt, longEdge: 256, reference: await solidImage({ r: 30, g: 30, b: 220 }) }),
    ]);
    expect(await meanPixelDifference(fromRed, fromBlue)).toBeGreaterThan(50);
  });

  it("rejects an unreadable reference with a clear message", async () => {
    await expect(renderImage({ prompt: "x", reference: new TextEncoder().encode("not an image") })).rejects.toThrow(
      /reference image could not be read/,
    );
  });
});
