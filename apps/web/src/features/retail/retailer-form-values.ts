import type {
  AddressKind,
  RetailerAddressInput,
  RetailerContactInput,
  RetailerDetail,
} from '@inventory/contract';
import { centsOf } from '../../toolkit/format';

/** The retailer form's values: the credit limit in dollars as typed, in cents for the API. */
export type RetailerValues = {
  name?: string;
  legal_name?: string;
  type?: string;
  tax_id?: string;
  price_tier?: string;
  credit_terms?: string;
  credit_limit?: number | null;
  tax_exempt?: boolean;
  account_rep_id?: number | null;
  notes?: string;
  addresses?: Partial<RetailerAddressInput>[];
  contacts?: Partial<RetailerContactInput>[];
};

export const newAddress = (kind: AddressKind, first: boolean): Partial<RetailerAddressInput> => ({
  kind,
  is_default: first,
});

export const NEW_RETAILER: RetailerValues = {
  type: 'store',
  price_tier: 'standard',
  credit_terms: 'prepaid',
  credit_limit: 0,
  tax_exempt: false,
  addresses: [newAddress('billing', true)],
  contacts: [{ is_main: true }],
};

export const valuesOf = ({ retailer, addresses, contacts }: RetailerDetail): RetailerValues => ({
  name: retailer.name,
  legal_name: retailer.legal_name ?? '',
  type: retailer.type,
  tax_id: retailer.tax_id ?? '',
  price_tier: retailer.price_tier,
  credit_terms: retailer.credit_terms,
  credit_limit: retailer.credit_limit_cents / 100,
  tax_exempt: retailer.tax_exempt,
  account_rep_id: retailer.account_rep_id,
  notes: retailer.notes ?? '',
  addresses: addresses.map((address) => ({ ...address, line2: address.line2 ?? '' })),
  contacts: contacts.map((contact) => ({
    ...contact,
    email: contact.email ?? '',
    phone: contact.phone ?? '',
    role: contact.role ?? '',
  })),
});

export const bodyOf = ({ credit_limit, ...values }: RetailerValues) => ({
  ...values,
  account_rep_id: values.account_rep_id ?? null,
  credit_limit_cents: centsOf(credit_limit ?? 0),
  addresses: values.addresses ?? [],
  contacts: values.contacts ?? [],
});
