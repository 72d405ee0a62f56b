// Installs dependencies on a fresh clone, or again when package-lock.json has changed since.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale =
  !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs;
if (stale) {
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
