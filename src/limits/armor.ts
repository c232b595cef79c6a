/**
 * Query limits for Apollo Server: GraphQL Armor's depth, alias and directive rules, graphql-js's own token
 * limit, the cost limit (Armor's formula over the fields fetched, `cost-limit-rule.ts`), the single-login
 * rule and the introspection depth limit (Armor's depth limit skips everything below `__schema`). Each
 * refusal carries its own code (`src/errors/error-codes.ts`).
 *
 * Two Armor protections are left off on purpose:
 * - its token plugin re-parses every document and, under Apollo Server 5, reports through
 *   `unexpectedErrorProcessingRequest`, which turns the refusal (and any other unexpected error) into an
 *   HTTP 500; graphql-js counts tokens while it parses anyway (`parseOptions.maxTokens`), so we use that;
 * - field-suggestion blocking: suggestions are masked in every error while introspection is off
 *   (`src/errors/schema-hints.ts`).
 */
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLError, ParseOptions, ValidationContext, ValidationRule } from 'graphql';
import { costLimitRule } from './cost-limit-rule.ts';
import { introspectionDepthRule } from './introspection-depth-rule.ts';
import { ErrorCode, type LimitCode } from '../errors/error-codes.ts';
import { limitError } from '../errors/graphql-errors.ts';
import { singleLoginRule } from './single-login-rule.ts';

/** The limits; each names its setting (their defaults: `src/config/server-settings.ts`). */
export interface QueryLimitsOptions {
  /** `MAX_DEPTH`: deepest field nesting. */
  maxDepth: number;
  /** `MAX_ALIASES`: aliases in one operation. */
  maxAliases: number;
  /** `MAX_DIRECTIVES`: directives in one operation. */
  maxDirectives: number;
  /** `MAX_TOKENS`: lexical tokens in one document. */
  maxTokens: number;
  /** `MAX_COST`: Armor's cost formula (objects 2, scalars 1, ×1.5 per level) over the fields fetched. */
  maxCost: number;
}

/** What Apollo Server takes (`validationRules`, `parseOptions`). */
export interface QueryLimits {
  validationRules: ValidationRule[];
  parseOptions: ParseOptions;
}

/**
 * Reports Armor's refusal as our coded error instead of Armor's `BAD_USER_INPUT`, saying what to change:
 * Armor's own words name neither the setting nor a way out.
 */
function reporter(code: LimitCode, setting: string, max: number, change: string) {
  return (context: ValidationContext | null, error: GraphQLError): void => {
    // Armor words its refusals as syntax errors ("Syntax Error: Query depth limit of 6 exceeded, found 7.").
    const found = error.message.replace(/^Syntax Error:\s*/, '').replace(/\.$/, '');
    const message = `${found}: ${change}, or have the gateway's operator raise ${setting}.`;
    context?.reportError(limitError(code, message, setting, max));
  };
}

/** An Armor limit of `n` whose refusal is our coded error naming `setting`, not Armor's own (not propagated). */
function countLimit(n: number, code: LimitCode, setting: string, change: string) {
  return { n, propagateOnRejection: false, onReject: [reporter(code, setting, n, change)] };
}

/** Builds the limits from the settings. */
export function createQueryLimits(options: QueryLimitsOptions): QueryLimits {
  const armor = new ApolloArmor({
    blockFieldSuggestion: { enabled: false },
    maxTokens: { enabled: false },
    maxDepth: {
      ...countLimit(
        options.maxDepth,
        ErrorCode.MAX_DEPTH_EXCEEDED,
        'MAX_DEPTH',
        'select fewer nested levels in one operation',
      ),
      // Count fields, not fragment spreads: the client preset writes a fragment per component, and the
      // same selection inline must not be cheaper than through fragments (cycles are invalid anyway).
      flattenFragments: true,
    },
    maxAliases: countLimit(
      options.maxAliases,
      ErrorCode.MAX_ALIASES_EXCEEDED,
      'MAX_ALIASES',
      'split the operation into several with fewer aliases each',
    ),
    maxDirectives: countLimit(
      options.maxDirectives,
      ErrorCode.MAX_DIRECTIVES_EXCEEDED,
      'MAX_DIRECTIVES',
      'use fewer directives in one operation',
    ),
    // Armor's cost counts the document as written (each fragment a level deeper, a field reached through
    // several fragments again): ours counts the fields the operation fetches (`cost-limit-rule.ts`).
    costLimit: { enabled: false },
  });
  // With the token and suggestion protections off, Armor's part is validation rules only (no plugins).
  const { validationRules } = armor.protect();
  return {
    validationRules: [
      ...validationRules,
      costLimitRule(options.maxCost),
      singleLoginRule,
      introspectionDepthRule,
    ],
    parseOptions: { maxLexicalTokens: options.maxTokens },
  };
}
