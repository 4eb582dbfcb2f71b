import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, headless, as the tests drive it (`CHROMIUM_PATH` where it is elsewhere):
 * no sandbox (the tests run as root), and none of the background connections a closed
 * network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
