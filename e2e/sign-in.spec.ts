import { expect, test } from "./fixtures/test";

const token = "e2e-studio-token-0123456789";
test.use({ studioEnv: { STUDIO_TOKEN: token } });

test("a studio with a token asks for it first, then opens", async ({ studioPage: studio, page }) => {
  await page.goto("/");
  const field = page.getByLabel("Access token");
  await expect(field).toBeVisible();
  await expect(studio.prompt).toHaveCount(0);

  await field.fill("not-the-right-token");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText(/wasn't accepted/);

  await field.fill(token);
  await field.press("Enter");
  await expect(studio.prompt).toBeEditable();
  await expect(page.getByRole("heading", { name: "Nothing here yet" })).toBeVisible();

  // The session cookie carries over a reload.
  await page.reload();
  await expect(studio.prompt).toBeEditable();

  // Losing the cookie sends any later call back to sign-in.
  await page.context().clearCookies();
  await studio.prompt.fill("A fox in the snow");
  await studio.prompt.press("Control+Enter");
  await expect(page.getByLabel("Access token")).toBeVisible();
});
