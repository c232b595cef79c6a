/**
 * `a` or `an` before a type name, in the messages of the error catalogue ("the id of an Order") and the
 * descriptions the gateway derives ("Creates an Order"): the one place that picks the article. English
 * picks by sound, not spelling; a few common spellings that sound otherwise are handled, and a team whose
 * type name fools the rule can write its own description.
 */

/** Vowel letters that sound like a consonant (`a User`, `a Euro`, `a OneTimeCode`). */
const CONSONANT_SOUND = /^(?:u[bcdfgklnprstv][aeiou]|uni|use|usa|eu|ewe|one|once)/i;
/** Consonant letters that sound like a vowel (`an Hour`, `an HonorRoll`). */
const VOWEL_SOUND = /^(?:hour|honou?r|honest|heir)/i;

/** The word with its indefinite article: `Order` → `an Order`, `Customer` → `a Customer`. */
export function withIndefiniteArticle(word: string): string {
  const vowel = /^[aeiou]/i.test(word) ? !CONSONANT_SOUND.test(word) : VOWEL_SOUND.test(word);
  return `${vowel ? 'an' : 'a'} ${word}`;
}
