/** The part of the `zipcodes` package (BSD, bundled US and Canadian ZIP data) the orders read. */
declare module 'zipcodes' {
  export type ZipCode = {
    readonly zip: string;
    readonly city: string;
    readonly state: string;
    readonly country: string;
  };
  export function lookup(zip: string): ZipCode | undefined;
}
