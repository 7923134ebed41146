import { expect, type Locator, type Page } from "@playwright/test";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { TestImage } from "../fixtures/test-images";

export const SCREENSHOT_DIR = path.join("test-results", "screenshots");

/** The studio screen, addressed the way a user (or a screen reader) finds things. */
export class StudioPage {
  constructor(readonly page: Page) {}

  // ---- create form ----
  get form(): Locator {
    return this.page.getByRole("form", { name: "Create" });
  }
  get prompt(): Locator {
    return this.page.getByRole("textbox", { name: "Prompt" });
  }
  get sendButton(): Locator {
    return this.form.getByRole("button", { name: /^Generate|^Submitting/ });
  }
  get promptError(): Locator {
    return this.form.locator("#prompt-error");
  }
  tab(name: "Image" | "Video"): Locator {
    return this.page.getByRole("tab", { name });
  }
  get referenceThumbnails(): Locator {
    return this.page.getByRole("list", { name: "Reference images in order" }).getByRole("img");
  }
  frameSlot(name: "First frame" | "Last frame"): Locator {
    return this.form.getByRole("group", { name });
  }

  // ---- results ----
  get imageResults(): Locator {
    return this.page.getByRole("list", { name: "Image results" }).getByRole("listitem");
  }
  get videoCards(): Locator {
    return this.page.getByRole("list", { name: "Video tasks" }).getByRole("listitem");
  }
  videoCard(prompt: string): Locator {
    return this.videoCards.filter({ hasText: prompt });
  }

  // ---- gallery ----
  get gallery(): Locator {
    return this.page.getByRole("list", { name: "Gallery" });
  }
  get galleryTiles(): Locator {
    return this.gallery.getByRole("button", { name: /^Open / });
  }
  get lightbox(): Locator {
    return this.page.getByRole("dialog");
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await expect(this.prompt).toBeEditable();
  }

  async choose(mode: "Image" | "Video"): Promise<void> {
    await this.tab(mode).click();
    await expect(this.tab(mode)).toHaveAttribute("aria-selected", "true");
  }

  /** Dispatches a real drag-and-drop with a DataTransfer holding these files onto `target`. */
  async dropFiles(target: Locator, files: readonly TestImage[]): Promise<void> {
    const payload = files.map((file) => ({ name: file.name, mime: file.mime, base64: file.buffer.toString("base64") }));
    const dataTransfer = await this.page.evaluateHandle((items) => {
      const transfer = new DataTransfer();
      for (const item of items) {
        const bytes = Uint8Array.from(atob(item.base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], item.name, { type: item.mime }));
      }
      return transfer;
    }, payload);
    await target.dispatchEvent("dragenter", { dataTransfer });
    await target.dispatchEvent("dragover", { dataTransfer });
    await target.dispatchEvent("drop", { dataTransfer });
    await dataTransfer.dispose();
  }

  /** Picks files through a file chooser opened by clicking `button`. */
  async browseFiles(button: Locator, files: readonly TestImage[]): Promise<void> {
    const chooser = this.page.waitForEvent("filechooser");
    await button.click();
    await (await chooser).setFiles(files.map((file) => ({ name: file.name, mimeType: file.mime, buffer: file.buffer })));
  }

  async screenshot(name: string, options: { fullPage?: boolean } = {}): Promise<string> {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    // Let images decode and transitions settle.
    await this.page.evaluate(() => Promise.all([...document.images].filter((img) => !img.complete).map((img) => img.decode().catch(() => undefined))));
    await this.page.waitForTimeout(250);
    await this.page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: "disabled" });
    return file;
  }
}
