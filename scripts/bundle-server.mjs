// Bundles the compiled server (dist/src/main.js and what it imports, packages included) into dist/bundle/server:
// a start then loads a few dozen files instead of about 2,600 from node_modules, which takes about 0.6 s off
// every start. Run by scripts/dist.mjs after compiling; `npm start` runs the bundle when it is there and
// dist/src/main.js otherwise (esbuild is a dev dependency).
//
// Left outside the bundle: packages that read their own files at run time (PGlite's WebAssembly and data files,
// swagger-ui-dist's assets), the two packages Nest imports dynamically (see EXTERNAL), and optional packages that
// are not installed (their imports fail at run time as they would unbundled, where the code handles that).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Two folders below dist/, as dist/src/<module>/ is: src/database/data-source.ts finds the embedded database
// template at '../../pglite-template' from its own module, which holds from here too.
const out = join(root, 'dist', 'bundle', 'server');
const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  'swagger-ui-dist',
  // Nest loads these with import() as well as our code importing them: bundled, a CommonJS package imported
  // dynamically has its exports under `default` only, and the two imports would not share its metadata.
  'class-transformer',
  'class-transformer/*',
  'class-validator',
  'class-validator/*',
];
const require = createRequire(join(root, 'package.json'));

/** Bare imports that do not resolve (optional peers such as @nestjs/microservices): left as imports. */
const missingStayExternal = {
  name: 'missing-stay-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'inner' });
      if (!r.errors.length) return r;
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      try {
        require.resolve(`${name}/package.json`);
      } catch {
        return { path: args.path, external: true };
      }
      return r; // installed but unresolvable: esbuild reports it
    });
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'dist', 'src', 'main.js')],
  outdir: out,
  bundle: true,
  // The dynamic imports in main.ts stay separate chunks, loaded when main reaches them (the early server
  // answers /health before the application's code is loaded).
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Class and function names as written (esbuild renames every decorated class otherwise): the API document's
  // schema names, Nest's logs.
  keepNames: true,
  // Neither comments nor indentation: 7 MB of source instead of 11 for V8 to read at every start (about 50 ms less).
  // Names stay as written (no identifier minification), so stack traces still name each function.
  minifyWhitespace: true,
  legalComments: 'none',
  external: EXTERNAL,
  // CommonJS packages inside an ES module: require, __filename and __dirname as they expect them.
  banner: {
    js: [
      "import { createRequire as __bundleRequire } from 'node:module';",
      "import { fileURLToPath as __bundlePath } from 'node:url';",
      "import { dirname as __bundleDir } from 'node:path';",
      'const require = __bundleRequire(import.meta.url);',
      'const __filename = __bundlePath(import.meta.url);',
      'const __dirname = __bundleDir(__filename);',
    ].join(' '),
  },
  plugins: [missingStayExternal],
  logLevel: 'error',
});

// keepNames wraps every named function in esbuild's __name(fn, 'name'), which defines the property each time
// the function is created: a closure made in a hot path (the simulator's pricing, detection) paid for it on
// every call (about 0.13 s of a first start's CPU). Most functions already have that name (a const's arrow is
// named after it): only those esbuild renamed need the property defined.
const NAME_HELPER = 'var __name=(target,value)=>__defProp(target,"name",{value,configurable:true});';
const NAME_HELPER_CHEAP = 'var __name=(target,value)=>(target.name===value?target:__defProp(target,"name",{value,configurable:true}));';
// esbuild writes strings and templates in ASCII (\u escapes) but leaves regular expression literals as written: a
// package's /[\u009b]/ in raw form made its whole file UTF-8 text, which Node decodes into two-byte strings before
// V8 reads them. An escape in a regular expression means the character it escapes (a character past U+FFFF becomes
// its two surrogates, which mean it too), so every file is kept ASCII.
const nonAscii = /[\u0080-\uffff]/g;
const escape = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
let patched = 0;
for (const f of readdirSync(out).filter((n) => n.endsWith('.js'))) {
  const file = join(out, f);
  const text = readFileSync(file, 'utf8');
  let next = text.replace(nonAscii, escape);
  if (next.includes(NAME_HELPER)) {
    next = next.replace(NAME_HELPER, NAME_HELPER_CHEAP);
    patched++;
  }
  if (next !== text) writeFileSync(file, next);
}
if (patched !== 1) {
  process.stderr.write(`bundle-server: esbuild's __name helper was found in ${patched} files, expected 1 (a new esbuild?)\n`);
  process.exit(1);
}
