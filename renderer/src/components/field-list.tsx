import type { ReactNode } from 'react';

/** The fields of an item as a description list. */
export function FieldList({ fields }: { fields: [label: string, value: ReactNode][] }) {
  return (
    <dl className="field-list">
      {fields.map(([label, value]) => (
        <div key={label} className="field-list__row">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}
