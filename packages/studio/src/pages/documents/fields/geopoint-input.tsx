import { fieldLabel } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';

/** `geopoint`: latitude and longitude, each with its own server error (`<path>.lat`, `<path>.lng`). */
export function GeopointInput(p: FieldProps) {
  const point = (p.value && typeof p.value === 'object' ? p.value : {}) as { lat?: number; lng?: number };
  const set = (key: 'lat' | 'lng', raw: string) => {
    const next = { ...point, [key]: raw === '' ? undefined : Number(raw) };
    p.onChange(next.lat === undefined && next.lng === undefined ? undefined : next);
  };
  const label = p.label ?? fieldLabel(p.field);
  return (
    <FieldGroup p={p}>
      <div className="row">
        {(['lat', 'lng'] as const).map((key) => (
          <label key={key}>
            {key === 'lat' ? 'Latitude' : 'Longitude'}
            <input
              type="number"
              step="any"
              min={key === 'lat' ? -90 : -180}
              max={key === 'lat' ? 90 : 180}
              aria-label={`${label} ${key === 'lat' ? 'latitude' : 'longitude'}`}
              value={point[key] ?? ''}
              disabled={p.disabled}
              onChange={(e) => set(key, e.target.value)}
            />
            {p.errors[`${p.path}.${key}`] && <span className="field-error">{p.errors[`${p.path}.${key}`]}</span>}
          </label>
        ))}
      </div>
    </FieldGroup>
  );
}
