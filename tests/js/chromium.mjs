// Debian's headless Chromium through playwright-core, for the browser tests
// (hosts, examples-pack, threads): a new page that records page errors,
// console errors and the paths it requested; the browser closes when the
// test ends. Returns {skip} with the reason when Chromium or playwright-core
// is missing (never downloads a browser).
import fs from 'node:fs';

export async function newChromiumPage(t, pageOptions) {
  if (!fs.existsSync('/usr/bin/chromium')) return { skip: 'no /usr/bin/chromium (Debian package chromium; scripts/setup.sh installs it)' };
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    return { skip: `playwright-core not installed (npm install): ${e.message}` };
  }
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  t.after(() => browser.close());
  const page = await browser.newPage(pageOptions);
  const problems = [];
  const requested = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  return { browser, page, problems, requested };
}
