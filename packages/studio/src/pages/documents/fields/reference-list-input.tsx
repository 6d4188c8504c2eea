import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import './reference-list-input.css';
import { documentKeys } from '../../../queries/document-keys';
import { useReferenceChoices, type DocumentChoice } from '../../../queries/use-document-queries';
import { fieldLabel, referenceTargets, type Field } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';
import { ReferenceCombobox } from './reference-combobox';
import { DragHandle, SortableList } from './sortable-list';

/** "Choose 1 to 3." from `minItems` and `maxItems`, or nothing. */
function limits(min: number | undefined, max: number | undefined): string | undefined {
  if (min !== undefined && max !== undefined) return `Choose ${min} to ${max}.`;
  if (min !== undefined) return `Choose at least ${min}.`;
  if (max !== undefined) return `Choose at most ${max}.`;
}

/**
 * An array of references (the server names this control `referenceList` for them: docs/api.md,
 * "Schemas"): the chosen documents as chips in order (title, type when the field allows several,
 * a link to open it, remove), dragged to reorder by pointer or keyboard (`sortable-list.tsx`), and
 * a search box that adds more (`reference-combobox.tsx`). `minItems` and `maxItems` bound removing
 * and adding; the server checks them again on save.
 */
export function ReferenceListInput(p: FieldProps) {
  const ids = (Array.isArray(p.value) ? p.value : []).filter((v): v is string => typeof v === 'string');
  const of = (p.field.of ?? {}) as Field;
  const targets = referenceTargets(of);
  const label = p.label ?? fieldLabel(p.field);
  const queryClient = useQueryClient();
  const choices = useReferenceChoices(targets, ids);
  const limitsId = useId();
  const min = p.field.minItems as number | undefined;
  const max = p.field.maxItems as number | undefined;
  const note = limits(min, max);

  // An emptied array is removed, as an emptied text is.
  const set = (next: string[]) => p.onChange(next.length ? next : undefined);
  const move = (from: number, to: number) => {
    const next = [...ids];
    next.splice(to, 0, ...next.splice(from, 1));
    set(next);
  };
  const toggle = (choice: DocumentChoice) => {
    if (ids.includes(choice.id)) return set(ids.filter((id) => id !== choice.id));
    // The chip shows its title at once: the search already read it.
    queryClient.setQueryData(documentKeys.reference(targets, choice.id), choice);
    set([...ids, choice.id]);
  };
  // A document listed twice (written through the API) is still two items, told apart by its occurrence.
  const idOf = (id: string, i: number) => `${id}~${ids.slice(0, i).filter((x) => x === id).length}`;
  const choiceAt = (i: number) => choices[i]?.data;
  const titleOf = (id: string, i: number) => {
    const c = choiceAt(i);
    if (c) return c.title;
    return choices[i]?.isPending ? `${label} ${i + 1}` : `Missing document ${id}`;
  };

  return (
    <FieldGroup p={p}>
      {ids.length === 0 && <span className="muted">None chosen.</span>}
      <SortableList
        items={ids}
        idOf={idOf}
        titleOf={titleOf}
        onMove={move}
        label={label}
        layout="wrap"
        className="reference-chips"
        disabled={p.disabled}
        itemProps={(id, i) => ({ className: 'reference-chip', 'aria-label': titleOf(id, i) })}
      >
        {(id, i, handle) => {
          const title = titleOf(id, i);
          const c = choiceAt(i);
          return (
            <>
              <DragHandle handle={handle} label={`Reorder ${title}`} disabled={p.disabled} />
              {c ? <Link to={`/documents/${c.type}/${c.id}`}>{title}</Link> : <span className="muted">{title}</span>}
              {c && targets.length > 1 && <span className="muted">{c.type}</span>}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${title}`}
                disabled={p.disabled || (min !== undefined && ids.length <= min)}
                onClick={() => set(ids.filter((_, j) => j !== i))}
              >
                <span aria-hidden="true">×</span>
              </button>
              {p.errors[`${p.path}.${i}`] && <span className="field-error">{p.errors[`${p.path}.${i}`]}</span>}
            </>
          );
        }}
      </SortableList>
      {!p.disabled && (
        <ReferenceCombobox
          targets={targets}
          label={label}
          chosen={new Set(ids)}
          full={max !== undefined && ids.length >= max}
          onToggle={toggle}
          describedBy={note ? limitsId : undefined}
        />
      )}
      {note && (
        <span id={limitsId} className="field-help">
          {note}
        </span>
      )}
    </FieldGroup>
  );
}
