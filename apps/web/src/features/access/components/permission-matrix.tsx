import { PERMISSION_GROUPS, type Permission } from '@inventory/contract';
import { Checkbox, Empty, Input, Spin } from 'antd';
import { useMemo, useState } from 'react';

/**
 * The permissions of a role as a matrix grouped by menu group, searchable by name or description.
 * `value` holds permission names; a group's box toggles its visible permissions.
 */
export function PermissionMatrix({
  permissions,
  loading,
  value = [],
  onChange,
  disabled,
}: {
  permissions: readonly Permission[];
  loading: boolean;
  value?: string[];
  onChange?: (next: string[]) => void;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const selected = new Set(value.map((name) => name.toLowerCase()));
  const groups = useMemo(() => {
    const term = search.trim().toLowerCase();
    const visible = permissions.filter(
      (permission) =>
        !term ||
        permission.name.toLowerCase().includes(term) ||
        permission.description.toLowerCase().includes(term),
    );
    const order = (group: string) => {
      const index = PERMISSION_GROUPS.indexOf(group as never);
      return index === -1 ? PERMISSION_GROUPS.length : index;
    };
    const byGroup = new Map<string, Permission[]>();
    for (const permission of visible) {
      byGroup.set(permission.group, [...(byGroup.get(permission.group) ?? []), permission]);
    }
    return [...byGroup.entries()].sort(([a], [b]) => order(a) - order(b));
  }, [permissions, search]);

  const set = (names: readonly string[], on: boolean) => {
    const lowered = new Set(names.map((name) => name.toLowerCase()));
    const rest = value.filter((name) => !lowered.has(name.toLowerCase()));
    onChange?.(on ? [...rest, ...names] : rest);
  };

  if (loading) return <Spin />;
  return (
    <div>
      <Input.Search
        allowClear
        placeholder="Search permissions"
        aria-label="Search permissions"
        onChange={(event) => setSearch(event.target.value)}
        style={{ marginBottom: 12 }}
      />
      {groups.length === 0 && <Empty description="No permission matches." />}
      {groups.map(([group, items]) => {
        const names = items.map((item) => item.name);
        const count = names.filter((name) => selected.has(name.toLowerCase())).length;
        return (
          <fieldset
            key={group}
            style={{
              border: '1px solid #f0f0f0',
              borderRadius: 8,
              padding: '8px 12px',
              marginBottom: 12,
            }}
          >
            <legend style={{ fontSize: 14, padding: '0 4px', width: 'auto', margin: 0, border: 0 }}>
              <Checkbox
                disabled={disabled}
                checked={count === names.length}
                indeterminate={count > 0 && count < names.length}
                onChange={(event) => set(names, event.target.checked)}
              >
                <strong>{group}</strong> ({count}/{names.length})
              </Checkbox>
            </legend>
            {items.map((permission) => (
              <div key={permission.id}>
                <Checkbox
                  disabled={disabled}
                  checked={selected.has(permission.name.toLowerCase())}
                  onChange={(event) => set([permission.name], event.target.checked)}
                >
                  <code>{permission.name}</code>{' '}
                  <span style={{ color: 'rgba(0,0,0,0.55)' }}>{permission.description}</span>
                </Checkbox>
              </div>
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}
