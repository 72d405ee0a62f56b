import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';

export type VendorTab = 'vendors' | 'returns';

/** The tab of the vendor directory the address names (`?tab=returns`). */
export function useVendorTab(): VendorTab {
  const [params] = useSearchParams();
  return params.get('tab') === 'returns' ? 'returns' : 'vendors';
}

/**
 * The vendor directory's tabs. Each tab's list keeps its search and filters in the address, so a
 * change of tab starts the other list afresh.
 */
export function VendorTabs() {
  const tab = useVendorTab();
  const [, setParams] = useSearchParams();
  return (
    <Tabs
      activeKey={tab}
      onChange={(next) => setParams(next === 'returns' ? { tab: 'returns' } : {})}
      items={[
        { key: 'vendors', label: 'Vendors' },
        { key: 'returns', label: 'Returns to vendor' },
      ]}
    />
  );
}
