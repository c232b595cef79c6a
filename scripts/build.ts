/**
 * `npm run build`: the production entry, `dist/main.js`, ES modules bundling `src/` (esbuild). The image
 * and `NODE_ENV=production npm start` run it instead of the TypeScript sources, so production skips Node's
 * type stripping: measured, start-up to ready about halved and the idle resident set about
 * 17 MiB smaller, for the same CPU per request.
 *
 * - Packages stay external (`node_modules` beside `dist/`): one copy of `graphql` for Apollo and the schema.
 * - Code splitting: each dynamic import of `src/` stays a chunk of its own (`dist/chunk-*.js`), loaded only
 *   when reached. Without it esbuild inlines them, and `main.ts`'s import of the tracing module would load
 *   the OpenTelemetry SDK in every process, traces on or off (`test/build/bundle-traces.test.ts`).
 * - The emulator stays out: `src/app/start-embedded-emulator.ts` imports it dynamically, only when embedded;
 *   that import points at `emulator/` beside `dist/`, which the image does not have. A static import of it
 *   fails the build.
 * - Each source file keeps seeing its own place in the repository (`import.meta.url`, `.dirname`,
 *   `.filename`), so files found relative to it (`schema/`, packages' assets) are found from the bundle too.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Metafile, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const EMULATOR = join(ROOT, 'emulator') + sep;
// Paths in the bundle are written as seen from the repository's dist/, wherever it is built: the bundle is
// meant to sit in a dist/ beside schema/ and node_modules/ (the image's layout, or the repository's).
const DIST = join(ROOT, 'dist');

/** Options of {@link buildBundle}. */
export interface BuildOptions {
  /** Where `main.js` (and its source map) go: a `dist/` beside `schema/` and `node_modules/`. Default the repository's. */
  outdir?: string;
}

/** A relative module specifier from `fromDir` to `target`, with forward slashes. */
function specifier(fromDir: string, target: string): string {
  const path = relative(fromDir, target).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

function emulatorStaysOut(): Plugin {
  return {
    name: 'emulator-stays-out',
    setup(plugin) {
      plugin.onResolve({ filter: /emulator/ }, (args) => {
        if (!args.path.startsWith('.')) return undefined;
        const target = resolve(args.resolveDir, args.path);
        if (!target.startsWith(EMULATOR)) return undefined;
        if (args.kind !== 'dynamic-import') {
          return {
            errors: [
              {
                text: `${args.importer} imports ${args.path} statically: the emulator must stay out of the bundle`,
              },
            ],
          };
        }
        return { path: specifier(DIST, target), external: true };
      });
    },
  };
}

function sourceLocationsKept(): Plugin {
  return {
    name: 'source-locations-kept',
    setup(plugin) {
      plugin.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!/import\.meta\.(?:url|dirname|filename)\b/.test(source)) return undefined;
        const contents =
          `import { fileURLToPath as __toPath } from 'node:url';\n` +
          `const __sourceUrl = new URL(${JSON.stringify(specifier(DIST, args.path))}, import.meta.url).href;\n` +
          `const __sourceFilename = __toPath(__sourceUrl);\n` +
          `const __sourceDirname = __toPath(new URL('.', __sourceUrl)).replace(/[\\\\/]$/, '');\n` +
          source
            .replace(/import\.meta\.url\b/g, '__sourceUrl')
            .replace(/import\.meta\.dirname\b/g, '__sourceDirname')
            .replace(/import\.meta\.filename\b/g, '__sourceFilename');
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Bundles `src/main.ts` into `<outdir>/main.js` and its chunks; answers esbuild's metafile (inputs and outputs). */
export async function buildBundle(options: BuildOptions = {}): Promise<Metafile> {
  const outdir = resolve(options.outdir ?? DIST);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'src', 'main.ts')],
    outdir,
    entryNames: '[name]',
    // Beside main.js: the relative imports of the emulator and of packages' assets hold from every chunk.
    chunkNames: 'chunk-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.15',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [emulatorStaysOut(), sourceLocationsKept()],
  });
  return result.metafile;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  const metafile = await buildBundle({ outdir: values.outdir });
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.map')) {
      const inputs = Object.keys(output.inputs).length;
      process.stdout.write(`${file}: ${(output.bytes / 1024).toFixed(0)} KiB from ${inputs} source files\n`);
    }
  }
}
