// The CSV cells are written once, in contracts/csv-cells.ts, for the work packages' exports too (server/work-packages).
export { csvCell, csvLine, withoutFormulaGuard } from '../../../contracts/csv-cells.js';
