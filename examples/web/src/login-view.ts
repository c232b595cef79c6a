/**
 * The sign-in form: a username or a registered mobile number, and a password. Any failure shows the
 * gateway's one generic message; a lock-out shows when to try again and keeps the button off until then.
 */
import type { ApolloClient } from '@apollo/client';
import { form, h } from './dom.ts';
import type { DeviceTokenStore } from './device-token-store.ts';
import { describeError, type ErrorDescription } from './error-message.ts';
import { SignInDocument } from './operations.ts';
import type { StoredSession } from './session-store.ts';

/** Options of {@link createLoginView}. */
export interface LoginViewOptions {
  client: ApolloClient;
  /** This browser's device tokens: sent with a sign-in, renewed by it. */
  devices: DeviceTokenStore;
  onSignedIn(session: StoredSession): void;
  onError(error: ErrorDescription): void;
}

/** A phone number signs in with the form login, the only one that accepts mobile numbers. */
const MOBILE = /^\+?[\d\s-]{5,}$/;

/** Builds the form. */
export function createLoginView(options: LoginViewOptions): HTMLElement {
  const username = h('input', { name: 'username', autocomplete: 'username', required: true });
  const password = h('input', {
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const submit = h('button', { type: 'submit' }, 'Sign in');
  const problem = h('p', { className: 'form-error', role: 'alert' });

  const signIn = async () => {
    problem.textContent = '';
    submit.disabled = true;
    let lockedForSeconds = 0;
    try {
      const name = username.value.trim();
      const result = await options.client.mutate({
        mutation: SignInDocument,
        variables: {
          username: name,
          password: password.value,
          method: MOBILE.test(name) ? 'FORM' : null,
          deviceToken: options.devices.get(name) ?? null,
        },
      });
      const login = result.data?.login;
      if (login === undefined) throw new Error('no login in the answer');
      password.value = '';
      options.devices.set(name, login.deviceToken);
      options.onSignedIn({ token: login.token, username: login.user.username, expiresAt: login.expiresAt });
    } catch (error) {
      const described = describeError(error);
      problem.textContent = described.message;
      lockedForSeconds = described.retryAfterSeconds ?? 0;
      options.onError(described);
    } finally {
      // A locked-out sign-in stays off until the gateway would accept a try again.
      setTimeout(() => {
        submit.disabled = false;
      }, lockedForSeconds * 1000);
    }
  };

  return form(
    { className: 'card login', ariaLabel: 'Sign in' },
    () => void signIn(),
    h('h2', {}, 'Sign in'),
    h('label', {}, 'Username or mobile number', username),
    h('label', {}, 'Password', password),
    submit,
    problem,
    h('p', { className: 'hint' }, 'Demo: demo / demo-password, or mobile 5550100.'),
  );
}
