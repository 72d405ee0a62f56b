// Browser tests drive Debian's Chromium; installs it when missing and this user may (CI runs as root).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(
      `${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium).`,
    );
    process.exit(1);
  }
  console.log('Installing Chromium from Debian packages...');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
}
