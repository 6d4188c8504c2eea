import type { ComponentType } from 'react';
import { ArrayInput } from './fields/array-input';
import { BlocksInput } from './fields/blocks-input';
import { BooleanInput } from './fields/boolean-input';
import { DatetimeInput } from './fields/datetime-input';
import { MarkdownInput, RichTextInput } from './fields/editor-inputs';
import type { FieldProps } from './fields/field-props';
import { GeopointInput } from './fields/geopoint-input';
import { JsonInput } from './fields/json-input';
import { NumberInput } from './fields/number-input';
import { ObjectInput } from './fields/object-input';
import { MediaInput } from './fields/image-input';
import { ReferenceInput } from './fields/picker-inputs';
import { ReferenceListInput } from './fields/reference-list-input';
import { SlugInput } from './fields/slug-input';
import { SelectInput, StringInput, TextInput } from './fields/text-inputs';
import { controlOf } from './schema';

export type { FieldErrors, FieldProps } from './fields/field-props';

/**
 * The controls by name: the server's field-type table names each field's control
 * (`field.studio.control` in `GET /config/schemas`), so a type is known in one place.
 */
const CONTROLS: Record<string, ComponentType<FieldProps>> = {
  string: StringInput,
  text: TextInput,
  number: NumberInput,
  boolean: BooleanInput,
  select: SelectInput,
  datetime: DatetimeInput,
  slug: SlugInput,
  markdown: MarkdownInput,
  richtext: RichTextInput,
  reference: ReferenceInput,
  referenceList: ReferenceListInput,
  media: MediaInput,
  array: ArrayInput,
  object: ObjectInput,
  blocks: BlocksInput,
  geopoint: GeopointInput,
  json: JsonInput,
};

/** The control for one field of the schema, by the name the server gives; a control this studio does not have is a one-line input. */
export function FieldInput(p: FieldProps) {
  const name = controlOf(p.field);
  const Control = Object.hasOwn(CONTROLS, name) ? CONTROLS[name] : StringInput;
  return <Control {...p} />;
}
