/**
 * Typed object type folders the tests bring with them (`OBJECT_TYPES_DIR`), so that a team may add, change
 * or remove types in `schema/objects/` without turning a test red.
 */
import { fileURLToPath } from 'node:url';

/** The emulator's demo types (`LoanType`, `Customer`, `Order`) as the tests know them; the harness default. */
export const DEMO_OBJECTS_DIR = fileURLToPath(new URL('./fixtures/demo-objects/', import.meta.url));

/** A type with a field of every filterable scalar (`Payment`, `com.acme.Payment`). */
export const VALUE_FILTERS_OBJECTS_DIR = fileURLToPath(new URL('./fixtures/value-filters/', import.meta.url));

/** A type with `Long`, `Int`, `Float`, `ID` and `JSON` fields for numbers past 2^53 (`LedgerEntry`, `com.acme.LedgerEntry`). */
export const LONG_NUMBERS_OBJECTS_DIR = fileURLToPath(new URL('./fixtures/long-numbers/', import.meta.url));
