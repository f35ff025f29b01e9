// The npm mirror on our build machines serves only Linux builds of platform-specific optional packages, so
// `npm install` leaves the other platforms' entries out of package-lock.json and `npm ci` then refuses the
// lock file as incomplete. This adds the missing optional entries with their os/cpu (inferred from the
// package name, as napi-rs names them), which `npm ci` skips on non-matching platforms.
// Run after `npm install`: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32', 'wasm32'];
const CPU = {
  arm: 'arm',
  'arm-eabi': 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  'arm-gnueabihf': 'arm',
  'arm-musleabihf': 'arm',
};
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (pkgs[key] || pkgs[`${path}/node_modules/${name}`]) continue;
    const suffix = name.split('/').pop();
    const os = OS.find((o) => suffix.includes(`-${o}-`) || suffix.endsWith(`-${o}`));
    const cpuKey = Object.keys(CPU)
      .sort((a, b) => b.length - a.length)
      .find((c) => suffix.includes(`-${c}`));
    const entry = { version, optional: true };
    if (os && os !== 'wasm32') entry.os = [os];
    if (cpuKey) entry.cpu = [CPU[cpuKey]];
    if (os === 'wasm32') entry.cpu = ['wasm32'];
    if (suffix.includes('musl')) entry.libc = ['musl'];
    else if (suffix.includes('gnu')) entry.libc = ['glibc'];
    pkgs[key] = entry;
    added++;
  }
}
writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} platform entries`);
