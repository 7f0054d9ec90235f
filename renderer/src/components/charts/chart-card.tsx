import type { ReactNode } from 'react';

/** A legend entry: a name and the class that colours its swatch as the chart colours the series. */
export interface LegendEntry {
  name: string;
  className: string;
}

interface ChartCardProps {
  title: string;
  /** The data in words, for screen readers: the SVG itself is hidden from them. */
  summary: string;
  /** Drawn in HTML rather than by the chart library, so that the swatches take the CSS colours of the series. */
  legend?: LegendEntry[];
  wide?: boolean;
  children: ReactNode;
}

/** A chart with its title, legend and a text summary. */
export function ChartCard({ title, summary, legend, wide = false, children }: ChartCardProps) {
  return (
    <figure className={`chart-card${wide ? ' chart-card--wide' : ''}`}>
      <figcaption>
        <h2>{title}</h2>
        <p className="visually-hidden">{summary}</p>
      </figcaption>
      <div className="chart-card__plot" aria-hidden="true">
        {children}
      </div>
      {legend ? (
        <ul className="chart-legend" aria-hidden="true">
          {legend.map((entry) => (
            <li key={entry.name}>
              <svg className="chart-legend__swatch" viewBox="0 0 10 10" width="10" height="10">
                <rect width="10" height="10" rx="2" className={entry.className} />
              </svg>
              {entry.name}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}
