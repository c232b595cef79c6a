/**
 * A stand-in for an object that a `beforeAll` creates, so that a test file can name it in a `const` at the
 * top instead of a `let` and a hook: every read (properties, spreads, `in`) goes to the object once set.
 */
export function lateBound<T extends object>(what: string): [T, (value: T | undefined) => void] {
  let current: T | undefined;
  const target = (): T => {
    if (current === undefined) throw new Error(`${what} exists only inside the tests and hooks of its block`);
    return current;
  };
  const proxy = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(target(), key) as unknown,
    has: (_target, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor(_target, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may report a property its (empty) target lacks only as configurable.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
  });
  return [
    proxy,
    (value) => {
      current = value;
    },
  ];
}
