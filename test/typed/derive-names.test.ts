import { expect, it } from 'vitest';
import { deriveNames, lowerFirstWord, pluralize } from '../../src/typed/spec/derive-names.ts';
import { withIndefiniteArticle } from '../../src/errors/indefinite-article.ts';

it.each([
  ['LoanType', 'loanType'],
  ['Order', 'order'],
  ['URLSet', 'urlSet'],
  ['ID', 'id'],
  ['A', 'a'],
  ['already', 'already'],
])('should lower-case the first word of %s', (typeName, single) => {
  expect(lowerFirstWord(typeName)).toBe(single);
});

it.each([
  ['loanType', 'loanTypes'],
  ['category', 'categories'],
  ['day', 'days'],
  ['address', 'addresses'],
  ['box', 'boxes'],
  ['batch', 'batches'],
  ['wish', 'wishes'],
])('should pluralize %s as %s', (word, plural) => {
  expect(pluralize(word)).toBe(plural);
});

it('should derive every name of a type from its name', () => {
  expect(deriveNames('LoanType')).toEqual({
    single: 'loanType',
    plural: 'loanTypes',
    save: 'saveLoanType',
    update: 'updateLoanType',
    connection: 'LoanTypeConnection',
    edge: 'LoanTypeEdge',
    where: 'LoanTypeWhere',
    input: 'LoanTypeInput',
    patch: 'LoanTypePatch',
    savePayload: 'LoanTypeSavePayload',
    updatePayload: 'LoanTypeUpdatePayload',
  });
});

it('should follow the overrides: mutations from single, type names from the type name', () => {
  expect(deriveNames('Person', { single: 'member', plural: 'people' })).toMatchObject({
    single: 'member',
    plural: 'people',
    save: 'saveMember',
    update: 'updateMember',
    connection: 'PersonConnection',
  });
  expect(deriveNames('Person', { plural: 'people' })).toMatchObject({ single: 'person', plural: 'people' });
});

it.each([
  ['Order', 'an Order'],
  ['Invoice', 'an Invoice'],
  ['Customer', 'a Customer'],
  ['User', 'a User'],
  ['UnitPrice', 'a UnitPrice'],
  ['Umbrella', 'an Umbrella'],
  ['Hour', 'an Hour'],
  ['OneTimeCode', 'a OneTimeCode'],
])('should put the article that sounds right before %s in derived descriptions', (word, phrase) => {
  expect(withIndefiniteArticle(word)).toBe(phrase);
});
