/**
 * Signed-in browser tests: accounts written into the app's database before it starts (pass
 * `prepare` to `startApp`), then a real login through the login page.
 */
import { createAccount, createDb, seed } from "@game/db";
import type { Page } from "playwright-core";
import { hashPassword } from "../../app/utils/password.server";

export interface TestAccount {
  username: string;
  email: string;
  password: string;
  role?: "player" | "admin";
}

/** A `prepare` for `startApp` that adds `accounts` (with real password hashes) to the data folder. */
export function withAccounts(...accounts: TestAccount[]): (dataDir: string) => Promise<void> {
  return async (dataDir) => {
    const handle = await createDb({ dataDir, url: "" });
    try {
      await seed(handle.db);
      for (const { username, email, password, role } of accounts) {
        await createAccount(handle.db, {
          username,
          email,
          passwordHash: await hashPassword(password),
          role,
          // Players of long standing; a sign-up in a test confirms through the mail, as people do.
          emailConfirmed: true,
        });
      }
    } finally {
      await handle.close();
    }
  };
}

/** Logs `account` in on the login page of the app at `baseUrl`; resolves once it has left it. */
export async function logIn(page: Page, baseUrl: string, account: TestAccount): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  const form = page.locator("main form");
  await form.getByLabel("Email").fill(account.email);
  await form.getByLabel("Password").fill(account.password);
  await form.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => url.pathname !== "/login", { timeout: 30_000 });
}
