import { useState } from 'react';
import type { FieldProps } from './field-props';
import { FieldWrapper } from './field-wrapper';

/** `json`: any JSON, edited as text; the value changes only while the text parses. */
export function JsonInput(p: FieldProps) {
  const [draft, setDraft] = useState(() => (p.value === undefined ? '' : JSON.stringify(p.value, null, 2)));
  const [bad, setBad] = useState<string>();
  // Text that does not parse is shown as this field's error, where a server error would be.
  return (
    <FieldWrapper p={{ ...p, errors: bad ? { ...p.errors, [p.path]: bad } : p.errors }}>
      {(control) => (
        <textarea
          {...control}
          rows={5}
          className="mono"
          value={draft}
          disabled={p.disabled}
          onChange={(e) => {
            setDraft(e.target.value);
            if (!e.target.value.trim()) {
              setBad(undefined);
              return p.onChange(undefined);
            }
            try {
              p.onChange(JSON.parse(e.target.value));
              setBad(undefined);
            } catch {
              setBad('Not valid JSON yet: the last valid value is kept.');
            }
          }}
        />
      )}
    </FieldWrapper>
  );
}
