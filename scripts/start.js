/**
 * `npm start`: the bundle (`dist/main.js`, `npm run build`) in production, the TypeScript sources otherwise.
 * Plain JavaScript on purpose: a `.ts` launcher would load Node's type stripper, which is what the bundle
 * saves (start-up time, memory). Without a bundle, production starts from the sources, as before, and says so.
 */
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const bundle = new URL('../dist/main.js', import.meta.url);
if (process.env.NODE_ENV === 'production' && existsSync(bundle)) {
  await import(bundle.href);
} else {
  if (process.env.NODE_ENV === 'production') {
    process.stderr.write('dist/main.js not found (npm run build): starting from the TypeScript sources\n');
  }
  await import('../src/main.ts');
}
