import type { SystemFields } from './document-types.js';
import type { Media } from './media.js';

/**
 * The types that let a client be typed by a content model (docs/client.md, "Typed by the schema"):
 * `createClient<VellumSchemas>()` with the map `vellum types` writes (type name → interface).
 * Types only: nothing here exists at run time.
 */

/** Any content model: each document type's name and its interface (an interface, so no index signature is asked for). */
export type SchemaMap = object;

/** The model of a client made without one: any type name, any fields. */
export type UntypedSchemas = { [type: string]: Record<string, unknown> };

/** Whether `S` is a real model rather than the untyped default (whose names are any string). */
export type IsTyped<S> = string extends keyof S ? false : true;

/** The document type names of a model. */
export type TypeName<S> = Extract<keyof S, string>;

/**
 * A reference field's value as `vellum types` writes it (`VellumRef<'author'>`): an id (a plain
 * string is one), marked with the types it may point at, so `expand` knows what it becomes. The
 * mark is an optional property no value has: matched by its name, the generated file needs no
 * import from this package.
 */
export type RefMark<K extends string> = { readonly __vellumRef?: K };

/** The type names a field's value refers to (`never` for any other value). */
export type RefTarget<V> = V extends RefMark<infer K> ? (string extends K ? never : K) : never;

/** An image or file field's value as `vellum types` writes it (`VellumMediaRef`): `expand` makes it the media record. */
export type MediaMark = { readonly __vellumMedia?: true };

/** Whether a value is a media id (a plain string is not known to be one). */
type IsMedia<V> = V extends MediaMark
  ? true extends NonNullable<V extends { readonly __vellumMedia?: infer M } ? M : never>
    ? true
    : false
  : false;

type Element<V> = V extends ReadonlyArray<infer E> ? E : V;
type Keys<T> = Extract<keyof T, string>;
type Depth = [never, 0, 1, 2];

/** The fields of `T` that hold references or media ids (alone or in a list). */
type RefFields<T> = {
  [F in Keys<T>]-?: [RefTarget<Element<NonNullable<T[F]>>>] extends [never]
    ? IsMedia<Element<NonNullable<T[F]>>> extends true
      ? F
      : never
    : F;
}[Keys<T>];
/** The fields whose expansion goes on (documents; a media record is where a path ends). */
type DocumentRefFields<T> = { [F in Keys<T>]-?: [RefTarget<Element<NonNullable<T[F]>>>] extends [never] ? never : F }[Keys<T>];

/**
 * The reference paths `expand` takes on `T`: `author`, and through the document it names,
 * `author.company` (three levels deep). Any string on an untyped client.
 */
export type ExpandPath<S, T, D extends number = 3> =
  IsTyped<S> extends false
    ? string
    : [D] extends [never]
      ? never
      : {
          [F in RefFields<T>]: F extends DocumentRefFields<T>
            ? F | `${F}.${ExpandPath<S, S[RefTarget<Element<NonNullable<T[F]>>> & keyof S], Depth[D]>}`
            : F;
        }[RefFields<T>];

type Head<P> = P extends `${infer H}.${string}` ? H : P;
type Tail<P, F extends string> = P extends `${F}.${infer R}` ? R : never;

/** One value with the paths below it expanded: an id becomes its document (a list, its documents). */
type ExpandValue<S, V, Rest> =
  V extends ReadonlyArray<infer E>
    ? Array<ExpandValue<S, E, Rest>>
    : [RefTarget<V>] extends [never]
      ? IsMedia<V> extends true
        ? Media
        : V
      : RefTarget<V> extends infer K extends keyof S
        ? [Rest] extends [never]
          ? S[K]
          : Expanded<S, S[K], Rest>
        : V;

/** `T` read with `expand` of the paths `P`: each expanded reference typed as the document it names. */
export type Expanded<S, T, P> =
  IsTyped<S> extends false
    ? T
    : [P] extends [never]
      ? T
      : { [F in keyof T]: F extends Head<P> & string ? ExpandValue<S, T[F], Tail<P, F>> : T[F] };

/** `T` read with `fields`: those fields and the system fields. */
export type Picked<T, F extends PropertyKey> = Pick<T, Extract<keyof T, F | keyof SystemFields>>;

/** The value a filter compares a field with: a select's options, a reference's id, a number, a date as a string or a Date. */
export type FilterValueOf<T, F> = F extends keyof T ? ScalarOf<NonNullable<T[F]>> : string | number | boolean | Date;

type ScalarOf<V> = V extends ReadonlyArray<infer E> ? ScalarOf<E> : [RefTarget<V>] extends [never] ? ScalarOfPlain<V> : string;

type ScalarOfPlain<V> = [V] extends [string]
  ? string extends V
    ? string | Date
    : V
  : V extends number | boolean
    ? V
    : string | number | boolean | Date;
