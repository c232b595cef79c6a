/**
 * A link to `/graphiql` on Apollo's landing page, where it matters: in the message the page shows when
 * Sandbox cannot load from Apollo's CDN (offline, air-gapped, or a proxy that blocks it).
 */
import type { ApolloServerPlugin, BaseContext, LandingPage } from '@apollo/server';

/**
 * Puts the link after the first paragraph of the landing page's offline fallback. Sandbox's container lies
 * over the fallback even when Sandbox failed to load, so while it is empty it must let clicks through: a
 * style with the page's own CSP nonce (the page allows no other inline style).
 */
function addGraphiqlLink(html: string, href: string): string {
  const nonce = /\snonce="?([A-Za-z0-9+/=_-]+)"?/.exec(html)?.[1];
  const style =
    nonce === undefined
      ? ''
      : `\n  <style nonce="${nonce}">#embeddableSandbox:empty, #embeddableExplorer:empty { pointer-events: none; }</style>`;
  return html.replace(
    /(<div class="fallback">[\s\S]*?<\/p>)/,
    `$1\n  <p>GraphiQL is served by this gateway itself and works offline: <a href="${href}">open GraphiQL</a>.</p>${style}`,
  );
}

/**
 * Wraps a landing page plugin so that its page links to GraphiQL. `href` is relative to the landing page
 * (`/graphql`): the default `graphiql` is `/graphiql`.
 */
export function linkGraphiqlFromLandingPage<T extends BaseContext>(
  plugin: ApolloServerPlugin<T>,
  href = 'graphiql',
): ApolloServerPlugin<T> {
  if (plugin.serverWillStart === undefined) return plugin;
  return {
    ...plugin,
    async serverWillStart(service) {
      const listener = await plugin.serverWillStart?.(service);
      const render = listener?.renderLandingPage?.bind(listener);
      if (listener === undefined || render === undefined) return listener;
      return {
        ...listener,
        async renderLandingPage(): Promise<LandingPage> {
          const { html } = await render();
          // The page is rendered per request (a fresh CSP nonce each time): keep it that way.
          return {
            html: async () => addGraphiqlLink(typeof html === 'string' ? html : await html(), href),
          };
        },
      };
    },
  };
}
