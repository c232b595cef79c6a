/** The banner at the top of the page: the gateway's error code and what it means. */
import { h } from './dom.ts';
import type { ErrorDescription } from './error-message.ts';

/** The banner element and its controls. */
export interface ErrorBanner {
  element: HTMLElement;
  show(error: ErrorDescription): void;
  hide(): void;
}

/** Creates a hidden banner; `show` reveals it (announced to screen readers as an alert). */
export function createErrorBanner(): ErrorBanner {
  const code = h('code', { className: 'error-code' });
  const message = h('span', { className: 'error-text' });
  const element = h(
    'div',
    { className: 'error-banner', role: 'alert', hidden: true },
    code,
    message,
    h(
      'button',
      {
        type: 'button',
        className: 'link',
        ariaLabel: 'Dismiss error',
        on: {
          click: () => {
            hide();
          },
        },
      },
      '×',
    ),
  );
  const hide = () => {
    element.hidden = true;
  };
  return {
    element,
    show(error) {
      code.textContent = error.code;
      message.textContent = error.message;
      element.hidden = false;
    },
    hide,
  };
}
