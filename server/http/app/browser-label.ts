/** Browsers by the token their User-Agent carries, the more specific first (Edge and Opera also say Chrome; Chrome also says Safari). */
const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bHeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/\bElectron\/(\d+)/, 'Electron'],
  [/\b(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[^)]*\bSafari\//, 'Safari'],
];
const systems: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad)\b/, 'iOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * What the sessions list calls the browser of a User-Agent: "Firefox 132 on Windows"; the
 * User-Agent itself, shortened, where no known browser is named in it (a script, curl).
 */
export function browserLabel(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  for (const [pattern, name] of browsers) {
    const version = pattern.exec(userAgent)?.[1];
    if (version === undefined) continue;
    const system = systems.find(([systemPattern]) => systemPattern.test(userAgent))?.[1];
    return `${name} ${version}${system ? ` on ${system}` : ''}`;
  }
  return userAgent.slice(0, 80);
}
