import type { Json } from '../base/types.js';

/** The type of a value on the wire, in JSON Schema's terms, with the facts OPTIONS, OpenAPI and GraphQL need. */
export interface ValueSchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'json';
  /** A refinement: `slug`, `email`, `uri`, `date`, `date-time`, `decimal`, `image`, or a plugin's own (`semver`). */
  format?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxDigits?: number;
  decimalPlaces?: number;
  /** The allowed values and their labels. */
  choices?: { value: string | number; label: string }[];
  /** Read as nested brief objects of this model (`app.model`); written as ids or attribute sets. */
  relation?: string;
  /** The keys the nested object shows, where not the target's brief form (a tree's parent, an interface's LAG). */
  nestedKeys?: string[];
  /** Read as `{value, label}`, written as the bare value (a choice field, unlike a generic relation's `_type`). */
  labelled?: boolean;
  /** The GraphQL enum of the choices, where the set names it (else named after the field: `SiteStatusEnum`). */
  enum?: { name?: string; prefix?: string };
  /** What an array holds. */
  items?: ValueSchema;
  /**
   * GraphQL's scalar for the value where not the one its type and format give (`ID` for a primary key, or a
   * plugin's own, `SemVer`), rendered as JSON renders it.
   */
  scalar?: string;
}

/** One key of a model's representation: what a field kind says about each key it reads or writes. */
export interface PropertyDescription extends ValueSchema {
  key: string;
  label: string;
  helpText?: string;
  readOnly: boolean;
  /** Written but never read back (passwords). */
  writeOnly?: boolean;
  required: boolean;
  nullable: boolean;
  /** The empty string is a value (a blank choice reads as null and may be written so). */
  blank?: boolean;
  default?: Json;
}

/** The message any write may carry for the change log: write-only, on every model's requests. */
export const CHANGELOG_MESSAGE: PropertyDescription = {
  key: 'changelog_message', label: 'Changelog message', type: 'string', readOnly: false, writeOnly: true, required: false, nullable: false,
};
