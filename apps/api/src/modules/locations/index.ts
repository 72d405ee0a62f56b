/** What other areas (putaway, stock, the data generator) use of locations. */
export { generateLocations, type GenerateLocationsOptions } from './generate-locations.js';
export { findLocation } from './locations.service.js';
