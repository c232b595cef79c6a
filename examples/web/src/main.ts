/**
 * The example front-end: sign in, then list, filter, page, create and edit loan types through the
 * gateway, with Apollo Client and operations typed by GraphQL Code Generator.
 */
import './style.css';
import { createGatewayClient } from './apollo.ts';
import { h, setChildren } from './dom.ts';
import { createErrorBanner } from './error-banner.ts';
import type { ErrorDescription } from './error-message.ts';
import { createLoanTypesView } from './loan-types-view.ts';
import { createLoginView } from './login-view.ts';
import { SignOutDocument } from './operations.ts';
import { loadSettings } from './settings.ts';
import { createDeviceTokenStore } from './device-token-store.ts';
import { createSessionStore, type StoredSession } from './session-store.ts';

async function start(root: HTMLElement): Promise<void> {
  const settings = await loadSettings();
  const store = createSessionStore(window.sessionStorage);
  const devices = createDeviceTokenStore(window.localStorage);
  const client = createGatewayClient({ uri: settings.graphqlUrl, token: () => store.get()?.token });
  const banner = createErrorBanner();
  const account = h('div', { className: 'account' });
  const main = h('main');

  const onError = (error: ErrorDescription) => {
    banner.show(error);
    // The session is gone (expired, or the gateway restarted with a new key): sign in again.
    if (error.code === 'UNAUTHENTICATED' && store.get() !== undefined) {
      store.clear();
      showLogin();
    }
  };

  const showLogin = () => {
    setChildren(account);
    setChildren(main, createLoginView({ client, devices, onSignedIn, onError }));
  };

  const showLoanTypes = (session: StoredSession) => {
    const signOut = () => {
      // Revoke the token on the gateway (sent explicitly: the store is cleared at once), and forget it here
      // whatever the answer, so a failed logout never keeps the user signed in on this page.
      void client
        .mutate({
          mutation: SignOutDocument,
          context: { headers: { authorization: `Bearer ${session.token}` } },
        })
        .catch(() => undefined)
        .finally(() => {
          void client.clearStore();
        });
      store.clear();
      banner.hide();
      showLogin();
    };
    setChildren(
      account,
      h('span', {}, 'Signed in as ', h('strong', {}, session.username)),
      h('button', { type: 'button', className: 'link', on: { click: signOut } }, 'Sign out'),
    );
    setChildren(main, createLoanTypesView({ client, onError }));
  };

  const onSignedIn = (session: StoredSession) => {
    store.set(session);
    banner.hide();
    showLoanTypes(session);
  };

  setChildren(
    root,
    h(
      'header',
      {},
      h('h1', {}, 'Loan types'),
      h('span', { className: 'subtitle' }, 'via ', h('code', {}, settings.graphqlUrl)),
      account,
    ),
    banner.element,
    main,
  );
  const session = store.get();
  if (session === undefined) showLogin();
  else showLoanTypes(session);
}

const root = document.getElementById('app');
if (root !== null) void start(root);
