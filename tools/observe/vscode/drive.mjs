// drive.mjs: opens code-server's workbench in headless Chromium for ~100 s, the time an MCP
// session takes, and acts as the user would: allows a server's sampling request or sign-in
// when asked, follows a sign-in it opens in a new tab, and answers a form elicitation shown
// as a notification (Respond, then the text of $ELICIT_ANSWER; empty: leave it unanswered),
// and in a quick pick (the extension's resource picker) clicks the entry that shows $PICK,
// then types $PICK_TYPE into the input that follows (a template's variable), if set; with
// $OPEN_URL set it also opens a URL elicitation's page from its notification (Open URL).
// Prints what the workbench showed.
//
//   node drive.mjs URL        (PLAYWRIGHT: playwright-core's index.mjs; CHROMIUM: the browser)
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const playwright =
  process.env.PLAYWRIGHT ?? path.join(here, '../../../tests/browser/node_modules/playwright-core/index.mjs');
const { chromium } = await import(pathToFileURL(playwright).href);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.on('console', (m) => {
  if (/mcp/i.test(m.text())) console.log('console:', m.text().slice(0, 300));
});
// A sign-in opens in a new tab: it follows the authorization server's redirects by itself.
page.context().on('page', (opened) => {
  opened.on('framenavigated', (frame) => {
    if (frame === opened.mainFrame()) console.log('tab:', frame.url().slice(0, 200));
  });
});
await page.goto(process.argv[2]);
const answer = process.env.ELICIT_ANSWER ?? 'fieldnotes';
let responded = false;
let picked = false;
let opened = false;
for (let i = 0; i < 20; i++) {
  await page.waitForTimeout(5000);
  const shown = await page
    .locator('.monaco-dialog-box, .quick-input-widget:visible, .notification-toast')
    .allInnerTexts()
    .catch(() => []);
  if (shown.length) console.log(`t=${(i + 1) * 5}s shown:`, JSON.stringify(shown).slice(0, 600));
  // Allow a server's request (sampling, signing in); open the sign-in page it names.
  for (const label of ['Allow', 'Open']) {
    const button = page.locator(`.monaco-dialog-box a.monaco-button:has-text("${label}")`);
    if (await button.count()) {
      console.log('click', label);
      await button.first().click().catch(() => {});
    }
  }
  const pick = process.env.PICK;
  const entry = page.locator(`.quick-input-widget:visible .monaco-list-row:has-text("${pick}")`);
  if (pick && !picked && (await entry.count())) {
    console.log('pick', pick);
    await entry.first().click().catch(() => {});
    picked = true;
    if (process.env.PICK_TYPE) {
      await page.waitForTimeout(3000);
      const offered = await page.locator('.quick-input-widget:visible').allInnerTexts();
      console.log('offered:', JSON.stringify(offered).slice(0, 300));
      await page.keyboard.type(process.env.PICK_TYPE);
      await page.waitForTimeout(1000);
      await page.keyboard.press('Enter');
    }
  }
  // Allow a server's sampling outside a tool call, asked in a notification.
  const allow = page.locator('.notification-toast a.monaco-button:has-text("Allow in this Session")');
  if (process.env.MCP_DRIVER_MODEL && (await allow.count())) {
    console.log('click Allow in this Session');
    await allow.first().click().catch(() => {});
  }
  const open = page.locator('.notification-toast a.monaco-button:has-text("Open URL")');
  if (process.env.OPEN_URL && !opened && (await open.count())) {
    console.log('click Open URL');
    await open.first().click().catch(() => {});
    opened = true;
  }
  const respond = page.locator('.notification-toast a.monaco-button:has-text("Respond")');
  if (answer && !responded && (await respond.count())) {
    console.log('click Respond, type the answer');
    await respond.first().click().catch(() => {});
    await page.waitForTimeout(1500);
    await page.keyboard.type(answer);
    await page.keyboard.press('Enter');
    responded = true;
  }
}
await browser.close();
