/**
 * Unknown fields of a Kubernetes manifest, as the API server's strict field validation (`kubectl apply
 * --validate=strict`, the default since 1.27) refuses them: a misspelt `terminationGracePeriodSecnds`, a
 * `preStop` beside `lifecycle` instead of in it.
 *
 * kubernetes-models validates against the API server's OpenAPI schemas (compiled by ajv) but lets through
 * any property a schema does not declare. What a schema declares is read back from the same validators: a
 * declared field has a type, so a value no type accepts (a symbol) fails validation there; an undeclared
 * field accepts anything. Maps (`labels`, a ConfigMap's `data`) declare a type for every key, so any key
 * passes. No copy of the schemas is vendored, and the check follows kubernetes-models' version.
 */

/** A kubernetes-models class: built from a manifest, `validate()` throws on a schema error. */
export type ModelClass = new (data: unknown) => { validate(): void };

/** A value of no JSON type: every declared field refuses it. */
const PROBE = Symbol('unknown-field-probe');

/** Whether `manifest` validates. */
function valid(Model: ModelClass, manifest: unknown): boolean {
  try {
    new Model(manifest).validate();
    return true;
  } catch {
    return false;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets `path` of `root` (a structured clone) to `value`. */
function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

/**
 * The paths (`spec.template.spec.terminationGracePeriodSecnds`) of every field of `manifest` its schema
 * does not declare; empty when all are known. `manifest` must validate as it is (check that first).
 */
export function unknownFields(Model: ModelClass, manifest: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        visit(item, [...path, i]);
      });
      return;
    }
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const probed = structuredClone(manifest);
      setAt(probed, [...path, key], PROBE);
      if (valid(Model, probed)) found.push([...path, key].join('.'));
      else visit(child, [...path, key]);
    }
  };
  visit(manifest, []);
  return found;
}
