/** Returned parcels for the tests of the areas that take them back (unpack, RMA receiving). */
export {
  shippedLifelineParcels,
  type ReturnedParcelSeed,
} from '../../test/returned-parcel-fixtures.js';
