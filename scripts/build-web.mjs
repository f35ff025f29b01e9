// Bundles the dashboard (web/) into dist/web: Preact and the page's code in one ES module, its stylesheet and
// index.html. Run by `npm run build`; served by the app at /dashboard/ (src/dashboard/dashboard.ts).
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'web');
mkdirSync(out, { recursive: true });
await build({
  // main.tsx imports style.css: esbuild writes it beside the script as app.css.
  entryPoints: { app: join(root, 'web', 'src', 'main.tsx') },
  outdir: out,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'linked',
  logLevel: 'warning',
});
copyFileSync(join(root, 'web', 'index.html'), join(out, 'index.html'));
