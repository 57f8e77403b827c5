import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * The browser the report test drives: CHROMIUM_PATH, or a system Chromium. A fresh machine has none, so the test
 * installs Debian's package the way .ci/run does when it may (root with apt-get); otherwise it says what to install.
 */
export function findChromium(): string {
  const given = process.env.CHROMIUM_PATH;
  if (given) return given;
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env, timeout: 300_000 });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'ignore', env, timeout: 600_000 });
    if (existsSync(CANDIDATES[0])) return CANDIDATES[0];
  }
  throw new Error(
    'the HTML report test needs Chromium: install the Debian package chromium (apt-get install chromium) or set CHROMIUM_PATH',
  );
}
