import { expect, test } from "./fixtures/test";
import { samplePrompts, seedImage, seedVideo, waitForGeneration } from "./fixtures/seed";

/** Main screens, saved under test-results/screenshots/ for a human to look at. */
test.describe("screens", () => {
  test("gallery, lightbox, generating, phone width and light theme", async ({ studioPage: studio, page, studio: server, makePng }) => {
    const reference = await makePng("moodboard.png", { hue: 160, label: "mood" });
    const video = await seedVideo(page.request, server.url, "Slow dolly through a foggy pine forest at dawn, volumetric light");
    for (const [index, sample] of samplePrompts.entries()) {
      await seedImage(page.request, server.url, { ...sample, reference: index === 0 ? reference : undefined });
    }
    await waitForGeneration(page.request, server.url, video.id);

    await studio.goto();
    await expect(studio.galleryTiles).toHaveCount(samplePrompts.length + 1);
    await studio.screenshot("04-gallery");

    // Generating: hold the image requests for a moment so the pending tiles can be seen.
    await page.route("**/api/studio/images", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.continue();
    });
    await studio.prompt.fill("Origami cranes hanging in a sunlit atelier, soft paper textures");
    await page.getByRole("radio", { name: "3:2" }).check();
    await page.getByRole("radio", { name: "3 images" }).check();
    await studio.dropFiles(studio.form, [reference]);
    await studio.prompt.press("Control+Enter");
    await expect(page.getByText("Generating…")).toHaveCount(3);
    await expect(page).toHaveTitle("(3) Media Studio");
    await studio.screenshot("05-generating-images");
    await expect(page.getByText("Generating…")).toHaveCount(0, { timeout: 20_000 });
    await page.unroute("**/api/studio/images");
    await studio.screenshot("06-session-results");

    // Lightbox on the video cover, then on an image with its reference.
    await studio.galleryTiles.filter({ hasText: "Video" }).first().click();
    await expect(studio.lightbox).toBeVisible();
    await studio.screenshot("07-lightbox-video");
    await page.keyboard.press("Escape");
    const withReference = studio.galleryTiles.filter({ has: page.locator("img") }).and(page.getByRole("button", { name: /Ceramic teapot/ }));
    await withReference.click();
    await expect(studio.lightbox.getByRole("img", { name: /Reference 1/ })).toBeVisible();
    await studio.screenshot("08-lightbox");
    await page.keyboard.press("Escape");

    // Search.
    await page.getByLabel("Search prompts").fill("owl");
    await expect(studio.galleryTiles).toHaveCount(1);
    await page.getByLabel("Search prompts").fill("");
    await expect(studio.galleryTiles).toHaveCount(samplePrompts.length + 4);

    // Light theme, persisted across a reload.
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await page.reload();
    await expect(studio.prompt).toBeEditable();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await expect(studio.galleryTiles.first()).toBeVisible();
    await studio.screenshot("09-light-theme");
    await studio.galleryTiles.nth(2).click();
    await studio.screenshot("10-light-lightbox");
    await page.keyboard.press("Escape");

    // Phone width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await studio.screenshot("11-phone-create");
    await page.getByRole("heading", { name: "Gallery" }).scrollIntoViewIfNeeded();
    await studio.screenshot("12-phone-gallery");
    await studio.galleryTiles.first().click();
    await studio.screenshot("13-phone-lightbox");
    await page.keyboard.press("Escape");
    // Nothing overflows sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("phone width, first run", async ({ studioPage: studio, page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await studio.goto();
    await studio.screenshot("14-phone-empty", { fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
