// Debian's chromium, driven by playwright-core (never a downloaded browser): the flags keep it
// off this machine's closed network and out of the sandbox it cannot have as root.
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

let shared: Promise<Browser> | null = null;

/**
 * One browser for all the files a test worker runs (the worker keeps its modules from file to
 * file: vitest.config.ts), since a launch and its first page cost seconds. A file opens its own
 * pages (each in a fresh context: no cookies shared) and closes them, never the browser, which
 * ends with the worker (playwright stops it when the process exits).
 */
export function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium().then((b) => {
    b.on('disconnected', () => {
      shared = null;
    });
    return b;
  });
  return shared;
}
