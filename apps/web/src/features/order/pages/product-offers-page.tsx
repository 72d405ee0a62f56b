import {
  allowedActions,
  counterProductOfferSchema,
  createProductOfferSchema,
  PRODUCT_OFFER_RESPOND_ACCESS,
  productOfferEndpoints,
  productOfferLifecycle,
  rejectProductOfferSchema,
  type ProductOffer,
  type ProductOfferAction,
  type ProductOfferStatus,
} from '@inventory/contract';
import { Alert, Button, Segmented, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { centsOf, counted, dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField } from '../../../toolkit/resource-page-config';
import { useProductOfferActions, useProductOffers } from '../api/product-offers.queries';

const STATUS_COLORS: Record<ProductOfferStatus, string> = {
  submitted: 'blue',
  countered: 'orange',
  accepted: 'green',
  rejected: 'red',
  expired: 'default',
  converted: 'purple',
};

const ACTION_WORDS: Record<ProductOfferAction, string> = {
  counter: 'Counter',
  accept: 'Accept',
  reject: 'Reject',
  expire: 'Expire',
  convert: 'Convert to order',
};

/** The actions a person answers an offer with; expiry is the server's. */
const ANSWERS: readonly ProductOfferAction[] = ['counter', 'accept', 'reject', 'convert'];

const quantityField: FormField = {
  name: 'qty',
  label: 'Quantity',
  kind: 'number',
  min: 1,
  required: true,
};
const priceField = (label: string): FormField => ({
  name: 'price',
  label,
  kind: 'number',
  min: 0,
  step: 0.01,
  precision: 2,
  required: true,
});

const NEW_OFFER_FIELDS: FormField[] = [
  {
    name: 'retailer_id',
    label: 'Retailer',
    kind: 'remote',
    load: pickerLoader(productOfferEndpoints.retailerOptions),
    placeholder: 'Type to search retailers',
    required: true,
  },
  {
    name: 'listing_id',
    label: 'Listing',
    help: 'Listings of the retailer channel on sale, with their list and floor prices.',
    kind: 'remote',
    load: pickerLoader(productOfferEndpoints.listingOptions),
    placeholder: 'Type a SKU or name',
    required: true,
  },
  quantityField,
  priceField('Offered price per unit ($)'),
  {
    name: 'expires_on',
    label: 'Last day',
    kind: 'text',
    placeholder: 'YYYY-MM-DD',
    required: true,
  },
];

type Values = Record<string, unknown>;

/** The offered price against the listing's price and floor, in words. */
function PriceCell({ offer }: { offer: ProductOffer }) {
  const underFloor = offer.unit_price_cents < offer.floor_price_cents;
  const off = offer.list_price_cents - offer.unit_price_cents;
  return (
    <>
      {dollars(offer.unit_price_cents)}
      {offer.unit_price_cents !== offer.offered_price_cents && (
        <Typography.Text type="secondary">
          {' '}
          (offered {dollars(offer.offered_price_cents)})
        </Typography.Text>
      )}
      {underFloor && (
        <Tag color="red" style={{ marginLeft: 4 }}>
          Under floor
        </Tag>
      )}
      <br />
      <Typography.Text type="secondary">
        list {dollars(offer.list_price_cents)}, floor {dollars(offer.floor_price_cents)}
        {off > 0 && `; ${dollars(off)} off`}
      </Typography.Text>
    </>
  );
}

/**
 * Product offers (`/dashboard/product-offer`, DOMAIN.md 4.1): retailers' B2B quotes for a listing
 * of the retailer channel. Staff enter an offer for a retailer, counter it, accept it (the units
 * held on the listing; under the floor price only with price.management), reject it with the
 * reason, or convert an accepted one into a wholesale order. Offers past their last day expire.
 */
export default function ProductOffersPage({ entry }: PageProps) {
  const [view, setView] = useState<'open' | 'closed'>('open');
  const offers = useProductOffers(view);
  const actions = useProductOfferActions();
  const profile = useProfile();
  const canRespond = useCan(PRODUCT_OFFER_RESPOND_ACCESS);
  const [entering, setEntering] = useState(false);
  const [countering, setCountering] = useState<ProductOffer | null>(null);
  const [rejecting, setRejecting] = useState<ProductOffer | null>(null);

  const answer = (offer: ProductOffer, action: ProductOfferAction) => {
    if (action === 'counter') setCountering(offer);
    else if (action === 'reject') setRejecting(offer);
    else if (action === 'accept') {
      actions.accept.mutate(offer.id, {
        onSuccess: () =>
          notify.success(`Offer ${offer.id} is accepted: ${offer.qty} units held on the listing.`),
        onError: (error) => showApiError(error),
      });
    } else if (action === 'convert') {
      actions.convert.mutate(offer.id, {
        onSuccess: ({ order }) =>
          notify.success(`Offer ${offer.id} is order ${order.number} now (${order.status}).`),
        onError: (error) => showApiError(error),
      });
    }
  };

  const columns = [
    { title: 'Offer', key: 'id', render: (_: unknown, offer: ProductOffer) => `#${offer.id}` },
    { title: 'Retailer', dataIndex: 'retailer', key: 'retailer' },
    {
      title: 'Sellable',
      key: 'sellable',
      render: (_: unknown, offer: ProductOffer) => (
        <>
          {offer.sku}
          <br />
          <Typography.Text type="secondary">
            {offer.name} ({offer.sellable_type})
          </Typography.Text>
        </>
      ),
    },
    { title: 'Qty', dataIndex: 'qty', key: 'qty', align: 'right' as const },
    {
      title: 'Price per unit',
      key: 'price',
      render: (_: unknown, offer: ProductOffer) => <PriceCell offer={offer} />,
    },
    {
      title: 'Total',
      key: 'total',
      align: 'right' as const,
      render: (_: unknown, offer: ProductOffer) => dollars(offer.total_cents),
    },
    {
      title: 'Expires',
      key: 'expires',
      render: (_: unknown, offer: ProductOffer) => when(offer.expires_at),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_: unknown, offer: ProductOffer) => (
        <>
          <Tag color={STATUS_COLORS[offer.status]}>
            {productOfferLifecycle.stateText(offer.status)}
          </Tag>
          {offer.qty_reserved > 0 && (
            <Typography.Text type="secondary">{offer.qty_reserved} held</Typography.Text>
          )}
          {offer.reject_reason && (
            <>
              <br />
              <Typography.Text type="secondary">{offer.reject_reason}</Typography.Text>
            </>
          )}
          {offer.order_id !== null && (
            <>
              <br />
              <Link to={`/order/list?order=${offer.order_id}`}>{offer.order_number}</Link>
            </>
          )}
        </>
      ),
    },
    ...(canRespond
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, offer: ProductOffer) => (
              <Space wrap>
                {allowedActions(productOfferLifecycle, offer, profile.data)
                  .filter((action) => ANSWERS.includes(action))
                  .map((action) => (
                    <Button
                      key={action}
                      size="small"
                      danger={action === 'reject'}
                      type={action === 'accept' || action === 'convert' ? 'primary' : 'default'}
                      aria-label={`${ACTION_WORDS[action]} offer ${offer.id}`}
                      loading={
                        (action === 'accept' &&
                          actions.accept.isPending &&
                          actions.accept.variables === offer.id) ||
                        (action === 'convert' &&
                          actions.convert.isPending &&
                          actions.convert.variables === offer.id)
                      }
                      onClick={() => answer(offer, action)}
                    >
                      {ACTION_WORDS[action]}
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Space>
          <Button onClick={() => void offers.refetch()} loading={offers.isFetching}>
            Refresh
          </Button>
          {canRespond && (
            <Button type="primary" onClick={() => setEntering(true)}>
              New offer
            </Button>
          )}
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">
        Retailers' quotes for a listing of the retailer channel. Accepting holds the units on the
        listing; an offer under the listing's floor price needs price management to accept.
        Converting an accepted offer makes a wholesale order at its price. Margins are not shown:
        the catalogue keeps no cost for variants yet.
      </Typography.Paragraph>
      <Segmented<'open' | 'closed'>
        aria-label="Offers shown"
        value={view}
        onChange={setView}
        options={[
          { value: 'open', label: 'Open' },
          { value: 'closed', label: 'Closed' },
        ]}
      />
      {offers.error ? (
        <Alert type="error" message={offers.error.message} />
      ) : !offers.data ? (
        <Spin />
      ) : (
        <>
          <Typography.Text>
            {counted(offers.data.total, `${view} offer`)}
            {offers.data.total > offers.data.offers.length &&
              `; the newest ${offers.data.offers.length} shown`}
            .
          </Typography.Text>
          <Table<ProductOffer>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={offers.data.offers}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: `No ${view} offers.` }}
          />
        </>
      )}
      {entering && (
        <ActionDrawer
          title="New offer"
          intro="An offer a retailer made, entered on its behalf. It waits for an answer until the end of its last day (UTC)."
          fields={NEW_OFFER_FIELDS}
          schema={createProductOfferSchema}
          initialValues={{ qty: 1 }}
          submitLabel="Enter offer"
          run={async (values: Values) => {
            const created = await actions.create.mutateAsync({
              retailer_id: values.retailer_id as number,
              listing_id: values.listing_id as number,
              qty: values.qty as number,
              offered_price_cents: centsOf(Number(values.price ?? 0)),
              expires_on: String(values.expires_on ?? ''),
            });
            return `Offer ${created.id} from ${created.retailer} is entered.`;
          }}
          onClose={() => setEntering(false)}
        />
      )}
      {countering && (
        <ActionDrawer
          key={countering.id}
          title={`Counter offer ${countering.id}`}
          intro={`${countering.retailer} offered ${countering.qty} × ${countering.sku} at ${dollars(countering.unit_price_cents)}; list ${dollars(countering.list_price_cents)}, floor ${dollars(countering.floor_price_cents)}.`}
          fields={[priceField('Price per unit ($)'), quantityField]}
          schema={counterProductOfferSchema}
          initialValues={{ qty: countering.qty, price: countering.list_price_cents / 100 }}
          submitLabel="Counter"
          run={async (values: Values) => {
            const offer = await actions.counter.mutateAsync({
              id: countering.id,
              unit_price_cents: centsOf(Number(values.price ?? 0)),
              qty: values.qty as number,
            });
            return `Offer ${offer.id} is countered at ${offer.qty} × ${dollars(offer.unit_price_cents)}.`;
          }}
          onClose={() => setCountering(null)}
        />
      )}
      {rejecting && (
        <ActionDrawer
          key={rejecting.id}
          title={`Reject offer ${rejecting.id}`}
          intro={
            rejecting.qty_reserved > 0
              ? `Its ${rejecting.qty_reserved} held units go back to the listing.`
              : undefined
          }
          fields={[
            { name: 'reason', label: 'Why is it rejected?', kind: 'textarea', required: true },
          ]}
          schema={rejectProductOfferSchema}
          initialValues={{ reason: '' }}
          submitLabel="Reject"
          run={async (values: Values) => {
            const offer = await actions.reject.mutateAsync({
              id: rejecting.id,
              reason: String(values.reason ?? ''),
            });
            return `Offer ${offer.id} is rejected.`;
          }}
          onClose={() => setRejecting(null)}
        />
      )}
    </Space>
  );
}
