import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { FieldErrors } from '../fields/field-props';
import type { Doc } from '../schema';
import { tabErrors, type FormTab } from './field-layout';
import './form-layout.css';

/**
 * The form's groups as tabs, the WAI-ARIA tabs pattern (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/):
 * one tab in the tab order, the arrow keys, Home and End move between them and show the one
 * reached. Every panel stays mounted (only hidden), so an editor keeps its state across tabs. A
 * tab holding a field with a server error is marked, so a 422 on a field out of sight is not
 * missed (docs/studio.md, "Form layout").
 */
export function FormTabs({
  tabs,
  values,
  errors,
  children,
}: {
  tabs: FormTab[];
  values: Doc;
  errors: FieldErrors;
  children: (tab: FormTab) => ReactNode;
}) {
  const id = useId();
  const [active, setActive] = useState(tabs[0]?.name);
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const current = tabs.some((t) => t.name === active) ? active : tabs[0]?.name;

  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const last = tabs.length - 1;
    const to = { ArrowRight: i === last ? 0 : i + 1, ArrowLeft: i === 0 ? last : i - 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const name = tabs[to]!.name;
    setActive(name);
    refs.current.get(name)?.focus();
  };

  return (
    <div className="form-tabs">
      <div role="tablist" aria-label="Field groups" className="form-tablist">
        {tabs.map((tab, i) => {
          const count = tabErrors(tab, values, errors);
          return (
            <button
              key={tab.name}
              ref={(el) => {
                if (el) refs.current.set(tab.name, el);
                else refs.current.delete(tab.name);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.name}`}
              aria-controls={`${id}-panel-${tab.name}`}
              aria-selected={tab.name === current}
              tabIndex={tab.name === current ? 0 : -1}
              data-invalid={count > 0 || undefined}
              onClick={() => setActive(tab.name)}
              onKeyDown={(e) => onKeyDown(e, i)}
            >
              {tab.title}
              {count > 0 && (
                <span className="form-tab-marker">
                  <span aria-hidden="true">!</span>
                  <span className="visually-hidden"> ({count === 1 ? '1 field needs' : `${count} fields need`} attention)</span>
                </span>
              )}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.name}
          role="tabpanel"
          id={`${id}-panel-${tab.name}`}
          aria-labelledby={`${id}-tab-${tab.name}`}
          hidden={tab.name !== current}
          className="form-tabpanel stack"
        >
          {children(tab)}
        </div>
      ))}
    </div>
  );
}
