import { describe, expect, it } from "vitest";
import { sniffImageType } from "./image-types";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("sniffImageType", () => {
  it("recognises PNG, JPEG, GIF and WebP by their magic bytes", () => {
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0))).toBe("image/png");
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageType(new TextEncoder().encode("GIF89a...."))).toBe("image/gif");
    expect(sniffImageType(new TextEncoder().encode("GIF87a...."))).toBe("image/gif");
    expect(sniffImageType(new TextEncoder().encode("RIFF\x10\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
  });

  it("refuses text, truncated files and other RIFF formats", () => {
    expect(sniffImageType(new TextEncoder().encode("<html>not an image</html>"))).toBeNull();
    expect(sniffImageType(bytes(0x89, 0x50))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("RIFF\x10\x00\x00\x00WAVEfmt "))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});
