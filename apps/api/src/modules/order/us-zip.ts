import { isPoBox, type UsAddress } from '@inventory/contract';
import { lookup } from 'zipcodes';

/**
 * Address checks against the bundled ZIP data set (the `zipcodes` package, BSD: about 42,000 US
 * ZIP codes with city and state, APO/FPO and territories included, read offline). A ZIP must
 * exist and lie in the address's state.
 */

/** What is wrong with an address's ZIP and state, by field; empty when they agree. */
export function zipProblems(address: Pick<UsAddress, 'state' | 'zip'>): Record<string, string[]> {
  const zip5 = address.zip.slice(0, 5);
  const found = lookup(zip5);
  if (!found || found.country !== 'US') return { zip: [`ZIP ${zip5} does not exist.`] };
  if (found.state !== address.state) {
    return { zip: [`ZIP ${zip5} is in ${found.state} (${found.city}), not ${address.state}.`] };
  }
  return {};
}

/** Problems of a subscriber's service address: ZIP and state, and a physical place (no PO box). */
export function serviceAddressProblems(address: UsAddress): Record<string, string[]> {
  const problems = zipProblems(address);
  if (isPoBox(address.line1)) {
    problems.line1 = ['The service address must be a physical address, not a PO box.'];
  }
  return problems;
}
