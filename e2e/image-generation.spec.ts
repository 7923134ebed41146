import { generationSchema, type Generation } from "../src/api/studio";
import { expect, test } from "./fixtures/test";

test("drop a PNG on the form, generate, find the result in the gallery and step through the lightbox", async ({
  studioPage: studio,
  page,
  makePng,
}) => {
  await studio.goto();
  await expect(page.getByRole("heading", { name: "Nothing here yet" })).toBeVisible();
  await studio.screenshot("01-empty");

  const png = await makePng("harbour-ref.png", { hue: 195, label: "harbour" });
  await studio.dropFiles(studio.form, [png]);
  await expect(studio.referenceThumbnails).toHaveCount(1);
  await expect(studio.referenceThumbnails.first()).toHaveAccessibleName("Reference 1: harbour-ref.png");

  const prompt = "A quiet harbour at dawn, soft mist over the water";
  await studio.prompt.fill(prompt);
  await page.getByRole("radio", { name: "16:9" }).check();
  await page.getByRole("radio", { name: "2 images" }).check();

  const created: Generation[] = [];
  page.on("response", async (response) => {
    if (response.request().method() === "POST" && response.url().endsWith("/api/studio/images")) {
      expect(response.status()).toBe(201);
      created.push(generationSchema.parse(await response.json()));
    }
  });
  await studio.prompt.press("Control+Enter");

  // Two requests side by side; the server received the dropped file as each one's reference.
  await expect.poll(() => created.length).toBe(2);
  for (const generation of created) {
    expect(generation.prompt).toBe(prompt);
    expect(generation.params.aspect_ratio).toBe("16:9");
    expect(generation.references.map((reference) => [reference.name, reference.mime])).toEqual([["harbour-ref.png", "image/png"]]);
  }

  await expect(studio.imageResults.getByRole("button", { name: /^Open image: A quiet harbour/ })).toHaveCount(2);
  await expect(studio.galleryTiles).toHaveCount(2);

  // A third, different image so the lightbox has somewhere to step.
  await studio.prompt.fill("Lemon still life on blue linen");
  await page.getByRole("radio", { name: "1 image" }).check();
  await studio.sendButton.click();
  await expect(studio.galleryTiles).toHaveCount(3);
  await expect(studio.galleryTiles.first()).toHaveAccessibleName(/Lemon still life/);

  const second = studio.galleryTiles.nth(1);
  await second.click();
  const dialog = studio.lightbox;
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog).toHaveAccessibleName(/Image/);
  await expect(dialog.getByText("2 of 3")).toBeVisible();
  await expect(dialog.getByText(prompt)).toBeVisible();
  await expect(dialog.getByRole("img", { name: /Reference 1: harbour-ref\.png/ })).toBeVisible();
  await expect(dialog.getByRole("img", { name: prompt })).toHaveJSProperty("complete", true);

  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByText("3 of 3")).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(dialog.getByText("1 of 3")).toBeVisible();
  await expect(dialog.getByText("Lemon still life on blue linen", { exact: true })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(second).toBeFocused();
});
