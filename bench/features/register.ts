/**
 * Loaded with `--import` by the `--features` mode's gateways (never by production): a module-resolution
 * hook (`module.registerHooks`) under which each module named in `BENCH_NEUTRALISE` (module URL or bare
 * specifier → stand-in URL, written by `feature-peers.ts`) resolves to its stand-in, except when the
 * importer is a stand-in itself (they re-export the real module).
 */
import { registerHooks } from 'node:module';

const raw = process.env.BENCH_NEUTRALISE;
const parsed: unknown = raw === undefined || raw === '' ? {} : JSON.parse(raw);
const redirects = new Map(
  Object.entries(typeof parsed === 'object' && parsed !== null ? parsed : {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  ),
);
const standIns = new URL('stand-ins/', import.meta.url).href;

// Installed even with nothing to swap (`P4-none`), so that copy carries what the hook itself costs.
if (raw !== undefined) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (context.parentURL?.startsWith(standIns) === true) return resolved;
      const to = redirects.get(specifier) ?? redirects.get(resolved.url);
      // Resolved by Node itself, so the stand-in gets the format its extension says (TypeScript, stripped).
      return to === undefined ? resolved : { ...nextResolve(to, context), shortCircuit: true };
    },
  });
}
