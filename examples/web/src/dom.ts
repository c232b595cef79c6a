/** A tiny element builder: the page needs no framework. Text is always set as text, never parsed as HTML. */

/** A child: an element, text, or nothing (skipped). */
export type Child = Node | string | number | null | undefined | false;

/** Event listeners by event type. */
export type Listeners = Partial<{
  [E in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[E]) => void;
}>;

/** Properties of an element, plus event listeners under `on`. */
export type Props<K extends keyof HTMLElementTagNameMap> = Partial<
  Omit<HTMLElementTagNameMap[K], 'style'>
> & {
  on?: Listeners;
  /** `data-*` attributes. */
  data?: Record<string, string>;
};

/** Creates an element with properties, listeners and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props<K> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const { on, data, ...rest } = props;
  const element = Object.assign(document.createElement(tag), rest);
  for (const [name, value] of Object.entries(data ?? {})) element.dataset[name] = value;
  for (const [type, listener] of Object.entries(on ?? {})) {
    element.addEventListener(type, listener as EventListener);
  }
  element.append(...childNodes(children));
  return element;
}

/** A form that calls `onSubmit` instead of navigating when it is submitted. */
export function form(
  props: Partial<Pick<HTMLFormElement, 'className' | 'role' | 'ariaLabel'>>,
  onSubmit: () => void,
  ...children: Child[]
): HTMLFormElement {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return h('form', { ...props, on: { submit } }, ...children);
}

/** Replaces an element's children. */
export function setChildren(element: Element, ...children: Child[]): void {
  element.replaceChildren(...childNodes(children));
}

function childNodes(children: Child[]): (Node | string)[] {
  return children.flatMap((c) =>
    c === null || c === undefined || c === false ? [] : [typeof c === 'number' ? String(c) : c],
  );
}
