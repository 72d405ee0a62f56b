/** The station toolkit: what a scan station is made of (docs/ARCHITECTURE.md, "Adding a station"). */
export { ExpectedFound, type Tally } from './expected-found';
export { patchQuery } from './patch-query';
export { beep, countText, TONE_COLORS, type ScanFeedback, type ScanTone } from './scan-feedback';
export { ScanInput } from './scan-input';
export { queuedLine, SCAN_LOG_LINES, ScanLog, withAnswer, type ScanLine } from './scan-log';
export { StationColumn, StationColumns } from './station-columns';
export { useStationName } from './station-name';
export { StationNameInput } from './station-name-input';
export { useScanQueue, type QueuedScan } from './use-scan-queue';
export { useWedgeScanner, type WedgeScanner } from './use-wedge-scanner';
