import { expect, test } from "./fixtures/test";

test("a 3001-character prompt cannot be sent and the form says why", async ({ studioPage: studio, page }) => {
  await studio.goto();
  let posts = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/api/studio/")) posts += 1;
  });

  await studio.prompt.fill("x".repeat(3000));
  await expect(studio.form.getByText("3000 / 3000")).toBeVisible();
  await expect(studio.sendButton).toBeEnabled();

  await studio.prompt.press("End");
  await studio.prompt.press("y");
  await expect(studio.form.getByText("3001 / 3000")).toBeVisible();
  await expect(studio.promptError).toHaveText("Prompt is 3001 characters — the limit is 3000. Shorten it to send.");
  await expect(studio.promptError).toHaveRole("alert");
  await expect(studio.sendButton).toBeDisabled();

  await studio.prompt.press("Control+Enter");
  await studio.choose("Video");
  await expect(studio.sendButton).toBeDisabled();
  await studio.prompt.press("Control+Enter");
  await page.waitForTimeout(500);
  expect(posts).toBe(0);

  await studio.prompt.press("Backspace");
  await expect(studio.promptError).toBeHidden();
  await expect(studio.sendButton).toBeEnabled();
});
