import { generationSchema } from "../src/api/studio";
import { expect, test } from "./fixtures/test";

test("a video with first and last frames goes through processing to success and plays", async ({ studioPage: studio, page, makePng }) => {
  await studio.goto();
  await studio.choose("Video");

  const first = await makePng("first-frame.png", { hue: 20, label: "first", width: 640, height: 360 });
  const last = await makePng("last-frame.png", { hue: 280, label: "last", width: 640, height: 360 });
  await studio.browseFiles(studio.frameSlot("First frame").getByRole("button", { name: /First frame/ }), [first]);
  await studio.dropFiles(studio.frameSlot("Last frame"), [last]);
  await expect(studio.frameSlot("First frame").getByRole("img", { name: /first-frame\.png/ })).toBeVisible();
  await expect(studio.frameSlot("Last frame").getByRole("img", { name: /last-frame\.png/ })).toBeVisible();

  const prompt = "Slow dolly through a foggy pine forest at dawn";
  await studio.prompt.fill(prompt);
  await page.getByLabel("Size").selectOption("1280x720");
  const submitted = page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/api/studio/videos"));
  await studio.sendButton.click();
  const response = await submitted;
  expect(response.status()).toBe(202);
  // The server got both frames, first then last.
  const accepted = generationSchema.parse(await response.json());
  expect(accepted.references.map((reference) => reference.name)).toEqual(["first-frame.png", "last-frame.png"]);
  expect(accepted.params.size).toBe("1280x720");

  const card = studio.videoCard(prompt);
  await expect(card).toHaveCount(1);
  await expect(page).toHaveTitle("(1) Media Studio");
  // Record every status the card shows, however briefly.
  await card.evaluate((element) => {
    const seen: string[] = [element.getAttribute("data-status") ?? ""];
    (window as unknown as { __statuses: string[] }).__statuses = seen;
    new MutationObserver(() => {
      const status = element.getAttribute("data-status") ?? "";
      if (seen.at(-1) !== status) seen.push(status);
    }).observe(element, { attributes: true, attributeFilter: ["data-status"] });
  });
  await expect(card.getByText("Processing")).toBeVisible({ timeout: 20_000 });
  await studio.screenshot("02-generating-video");
  await expect(card.getByText("Success")).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole("status").getByText("Video ready")).toBeVisible();
  const statuses = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
  expect(statuses.slice(statuses.indexOf("processing"))).toEqual(["processing", "success"]);

  const video = card.locator("video");
  await expect(video).toHaveAttribute("poster", /\/media\//);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(0);

  await expect(page).toHaveTitle("Media Studio");
  await expect(studio.galleryTiles.first()).toHaveAccessibleName(new RegExp(`Open video: ${prompt}`));
});

test("a video that fails shows the error code and message on its card", async ({ studioPage: studio, page }) => {
  await studio.goto();
  await studio.choose("Video");
  const prompt = "A lighthouse in a storm sandbox:fail";
  await studio.prompt.fill(prompt);
  await studio.prompt.press("Control+Enter");

  const card = studio.videoCard(prompt);
  await expect(card.getByText("Failed")).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole("status").getByText("Video failed")).toBeVisible();
  await expect(card.getByText("timeout", { exact: true })).toBeVisible();
  await expect(card.getByText(/timed out/i)).toBeVisible();
  await studio.screenshot("03-video-failed");
});

test("reloading in the middle of a video task resumes its card until it finishes", async ({ studioPage: studio, page }) => {
  await studio.goto();
  await studio.choose("Video");
  const prompt = "Paper boats drifting on a pond, top-down";
  await studio.prompt.fill(prompt);
  await studio.sendButton.click();
  await expect(studio.videoCard(prompt).getByText(/Pending|Processing/)).toBeVisible();

  await page.reload();
  await expect(studio.prompt).toBeEditable();
  const card = studio.videoCard(prompt);
  await expect(card).toHaveCount(1);
  await expect(card.getByText(/Pending|Processing/)).toBeVisible();
  await expect(card.getByText("Success")).toBeVisible({ timeout: 45_000 });
  await expect.poll(() => card.locator("video").evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(1);
});
