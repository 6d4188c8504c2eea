import type { ComponentType } from 'react';
import { ArrayInput } from './fields/array-input';
import { BooleanInput } from './fields/boolean-input';
import { DatetimeInput } from './fields/datetime-input';
import { MarkdownInput, RichTextInput } from './fields/editor-inputs';
import type { FieldProps } from './fields/field-props';
import { GeopointInput } from './fields/geopoint-input';
import { JsonInput } from './fields/json-input';
import { NumberInput } from './fields/number-input';
import { ObjectInput } from './fields/object-input';
import { MediaInput, ReferenceInput } from './fields/picker-inputs';
import { SlugInput } from './fields/slug-input';
import { SelectInput, StringInput, TextInput } from './fields/text-inputs';

export type { FieldErrors, FieldProps } from './fields/field-props';

/** The control of each field type (docs/api.md, "Schemas"); `string`, `email`, `url` and `date` are one-line inputs. */
const CONTROLS: Record<string, ComponentType<FieldProps>> = {
  text: TextInput,
  number: NumberInput,
  integer: NumberInput,
  boolean: BooleanInput,
  select: SelectInput,
  datetime: DatetimeInput,
  slug: SlugInput,
  markdown: MarkdownInput,
  richtext: RichTextInput,
  reference: ReferenceInput,
  image: MediaInput,
  file: MediaInput,
  array: ArrayInput,
  object: ObjectInput,
  geopoint: GeopointInput,
  json: JsonInput,
};

/** The control for one field of the schema, by its type; a type this studio does not know gets a one-line input. */
export function FieldInput(p: FieldProps) {
  const Control = Object.hasOwn(CONTROLS, p.field.type) ? CONTROLS[p.field.type] : StringInput;
  return <Control {...p} />;
}
