/**
 * The names the gateway derives from a typed object type's name. Predictable on purpose: a front-end can
 * guess every field and type name from the SDL it wrote.
 *
 * For `type LoanType @dataObject(…)`:
 * - `single`: the type name with its first word lower-cased: `loanType` (`URLSet` → `urlSet`);
 * - `plural`: the English plural of `single`: `loanTypes` (`category` → `categories`, `address` →
 *   `addresses`); override irregular ones with `@dataObject(plural: "people")`;
 * - mutations: `save` and `update` + `single` with an upper-case first letter: `saveLoanType`,
 *   `updateLoanType` (so `single: "loan"` gives `saveLoan`);
 * - types: the type name + `Connection`, `Edge`, `Where`, `Input`, `Patch`, `SavePayload`, `UpdatePayload`.
 */

/** Every generated name of one typed object type. */
export interface DerivedNames {
  single: string;
  plural: string;
  save: string;
  update: string;
  connection: string;
  edge: string;
  where: string;
  input: string;
  patch: string;
  savePayload: string;
  updatePayload: string;
}

/** The `single` and `plural` overrides of `@dataObject`. */
export interface NameOverrides {
  single?: string | undefined;
  plural?: string | undefined;
}

/** `LoanType` → `loanType`, `URLSet` → `urlSet`, `ID` → `id`: the leading capitals of the first word go lower. */
export function lowerFirstWord(name: string): string {
  const capitals = /^[A-Z]+/.exec(name)?.[0] ?? '';
  if (capitals.length === 0) return name;
  if (capitals.length === name.length) return name.toLowerCase();
  // In `URLSet` the `S` starts the next word: keep it.
  const keep = capitals.length > 1 && /[a-z]/.test(name.charAt(capitals.length)) ? 1 : 0;
  const lowered = capitals.slice(0, capitals.length - keep).toLowerCase();
  return lowered + name.slice(lowered.length);
}

/** Simple English plurals: `-y` after a consonant → `-ies`; `-s`, `-x`, `-z`, `-ch`, `-sh` → `-es`; else `-s`. */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

const upperFirst = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** The names of a typed object type, with the `@dataObject` overrides applied. */
export function deriveNames(typeName: string, overrides: NameOverrides = {}): DerivedNames {
  const single = overrides.single ?? lowerFirstWord(typeName);
  return {
    single,
    plural: overrides.plural ?? pluralize(single),
    save: `save${upperFirst(single)}`,
    update: `update${upperFirst(single)}`,
    connection: `${typeName}Connection`,
    edge: `${typeName}Edge`,
    where: `${typeName}Where`,
    input: `${typeName}Input`,
    patch: `${typeName}Patch`,
    savePayload: `${typeName}SavePayload`,
    updatePayload: `${typeName}UpdatePayload`,
  };
}
