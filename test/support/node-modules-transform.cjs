// Jest on Node 20 cannot require() an ES module from a CommonJS one (Node itself can, since 20.19).
// This transform runs over node_modules and fixes the two cases this project meets:
//  - @nestjs/throttler (CommonJS) requires the ESM-only @nestjs/common and @nestjs/core: point those requires
//    at the very module instances the test imported (set on globalThis by nest-globals.ts), so classes and
//    injection tokens stay identical;
//  - a CommonJS package requires a small ESM-only package (e.g. content-disposition from @fastify/static):
//    when Jest loads such an ESM file through require(), compile it to CommonJS with TypeScript.
// Files loaded as ES modules pass through unchanged.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const typeCache = new Map();
function isEsmFile(filename) {
  if (filename.endsWith('.mjs')) return true;
  if (filename.endsWith('.cjs')) return false;
  let dir = path.dirname(filename);
  const seen = [];
  for (;;) {
    if (typeCache.has(dir)) break;
    seen.push(dir);
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj)) {
      let type = 'commonjs';
      try {
        type = JSON.parse(fs.readFileSync(pj, 'utf8')).type || 'commonjs';
      } catch {
        /* keep commonjs */
      }
      typeCache.set(dir, type === 'module');
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) {
      typeCache.set(dir, false);
      break;
    }
    dir = up;
  }
  const result = typeCache.get(dir);
  for (const d of seen) typeCache.set(d, result);
  return result;
}

module.exports = {
  process(source, filename, options) {
    if (/[\\/]@nestjs[\\/]throttler[\\/]/.test(filename)) {
      return {
        code: source
          .replace(/require\(["']@nestjs\/common["']\)/g, 'globalThis.__nest_common__')
          .replace(/require\(["']@nestjs\/core["']\)/g, 'globalThis.__nest_core__'),
      };
    }
    if (options.supportsStaticESM || !isEsmFile(filename)) return { code: source };
    const out = ts.transpileModule(source.replace(/import\.meta\.url/g, '__import_meta_url__'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, allowJs: true },
      fileName: filename,
    });
    return { code: `const __import_meta_url__ = require('node:url').pathToFileURL(__filename).href;\n${out.outputText}` };
  },
};
