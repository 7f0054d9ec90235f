import { epssAttribution } from '../../../contracts/console/threat-intel-basics';

const firstUrl = epssAttribution.slice(epssAttribution.indexOf('https://'));

/** FIRST's attribution line, its address a link: shown wherever EPSS figures are. */
export function EpssAttribution() {
  return (
    <p className="intel-attribution">
      {epssAttribution.slice(0, epssAttribution.indexOf(firstUrl))}
      <a href={firstUrl} target="_blank" rel="noreferrer">
        {firstUrl}
      </a>
    </p>
  );
}

/** Where the real files come from, and that the demo's are generated. */
export function IntelSources() {
  return (
    <section aria-labelledby="intel-sources-title">
      <h2 id="intel-sources-title">Where the files come from</h2>
      <ul className="intel-sources">
        <li>
          <strong>EPSS scores</strong>: FIRST publishes a CSV every day, <code>epss_scores-YYYY-MM-DD.csv.gz</code>, about 400,000 CVEs with their probability of exploitation
          in the next 30 days and its percentile (<a href="https://www.first.org/epss/data_stats" target="_blank" rel="noreferrer">FIRST&apos;s EPSS data</a>). Import it as
          downloaded. Scores of different model versions are not comparable: no change is computed across them.
        </li>
        <li>
          <strong>Known exploited vulnerabilities</strong>: CISA&apos;s KEV catalog, as JSON (
          <a href="https://www.cisa.gov/known-exploited-vulnerabilities-catalog" target="_blank" rel="noreferrer">
            cisa.gov
          </a>
          , <code>known_exploited_vulnerabilities.json</code>); ENISA&apos;s EU KEV list, as JSON, from the{' '}
          <a href="https://euvd.enisa.europa.eu/" target="_blank" rel="noreferrer">
            European Vulnerability Database
          </a>
          .
        </li>
        <li>
          The demo organization&apos;s files are generated for its CVEs (EPSS model <code>demo</code>, catalog version <code>demo</code>): they are not FIRST&apos;s nor
          CISA&apos;s figures. A sixth of its CVEs are left unscored, so that &ldquo;not scored&rdquo; shows; no ENISA file is imported, so that &ldquo;no file&rdquo; shows.
        </li>
      </ul>
      <EpssAttribution />
    </section>
  );
}
