/** Where the gateway is: `config.json` beside the page (written by `npm run example`), else a build-time default. */

/** The page's settings. */
export interface Settings {
  graphqlUrl: string;
}

const FALLBACK = (import.meta.env.VITE_GRAPHQL_URL as string | undefined) ?? 'http://127.0.0.1:4000/graphql';

/** Reads `config.json` from the page's own origin; a missing or malformed file means the default. */
export async function loadSettings(): Promise<Settings> {
  try {
    const response = await fetch('config.json', { cache: 'no-store' });
    const value: unknown = response.ok ? await response.json() : null;
    if (
      typeof value === 'object' &&
      value !== null &&
      'graphqlUrl' in value &&
      typeof value.graphqlUrl === 'string'
    ) {
      return { graphqlUrl: value.graphqlUrl };
    }
  } catch {
    // No config.json (e.g. the Vite dev server): use the default.
  }
  return { graphqlUrl: FALLBACK };
}
